/**
 * Looks at single pages while tuning the extractor (not part of the score).
 *
 *   npx tsx benchmarks/main-content/inspect.ts <id-prefix>           what Quarry got wrong on one page
 *   npx tsx benchmarks/main-content/inspect.ts <id-prefix> --trace   chrome removed, candidates, root
 *   npx tsx benchmarks/main-content/inspect.ts <id-prefix> --readability   the same diff for the peer
 *   npx tsx benchmarks/main-content/inspect.ts --traf-errors         every traf snippet Quarry misses or keeps
 *   npx tsx benchmarks/main-content/inspect.ts --traf-errors --versus   only those readability gets right
 *   ... --opaque-names                                                 the same with class/id names made meaningless
 *   npx tsx benchmarks/main-content/inspect.ts --name-gap            traf errors and aeb lines wrong only under opaque names (or only named)
 *   npx tsx benchmarks/main-content/inspect.ts --unrendered [--opaque-names]   text the browser would not render
 *       (hidden by the page's <style>, a closed <dialog>, [popover]): Quarry's errors inside it (gain) and
 *       content inside it (risk); `--all-blocks` also lists every such block and whether Quarry's output has it
 *
 * Only pages of the tuning folds (folds.ts) are shown: the held-out folds' pages stay unseen.
 * `--folds 0,1` narrows further; a held-out fold cannot be chosen.
 *
 * aeb pages: output lines that are not in the ground truth (+) and ground-truth paragraphs missing
 * (-), compared as the score reads them (`\w+` tokens: quote spacing and empty lines are no
 * difference). traf pages: snippets missing and boilerplate kept, then the markdown.
 */
import { type AnyNode, type Element, isTag } from 'domhandler';
import { findOne, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { removeChrome } from '../../packages/core/src/extract/chrome-removal.js';
import { scoreContent } from '../../packages/core/src/extract/content-scoring.js';
import { isNonContent, stripNonContent } from '../../packages/core/src/extract/page-preparation.js';
import { hiddenStyleTokens, isHiddenByStyles, styleHiddenElements } from '../../packages/core/src/extract/page-styles.js';
import { detach } from '../../packages/core/src/extract/dom-tools.js';
import { measureProse, measureText } from '../../packages/core/src/extract/text-stats.js';
import { loadAeb, loadTraf } from './corpus.js';
import { foldOf, parseFolds, tuningFolds } from './folds.js';
import { loadQuarryMarkdown, quarryExtractor, readabilityExtractor } from './extractors.js';
import { markdownToText } from './markdown-to-text.js';
import { collapseWhitespace } from './metrics.js';
import { withOpaqueNames } from './opaque-names.js';

const args = process.argv.slice(2);
const foldsIndex = args.indexOf('--folds');
const chosenFolds = parseFolds(foldsIndex >= 0 ? args[foldsIndex + 1] : undefined) ?? [...tuningFolds];
if (chosenFolds.some((fold) => !tuningFolds.includes(fold))) {
  throw new Error(`folds ${tuningFolds.join(',')} are the tuning folds; the others are held out and not inspected`);
}
const inTuning = (page: { url: string }): boolean => chosenFolds.includes(foldOf(page.url));
const prefix = args.find((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--folds') ?? '';
const { toMarkdown } = await loadQuarryMarkdown();
const extractPage = args.includes('--readability') ? readabilityExtractor : quarryExtractor(toMarkdown);
/** `--opaque-names`: class and id names replaced by meaningless ones first (opaque-names.ts). */
const isOpaque = args.includes('--opaque-names');
const pageHtml = (html: string): string => (isOpaque ? withOpaqueNames(html) : html);
const extract = (html: string, url: string) => extractPage(pageHtml(html), url);

function describeElement(element: Element): string {
  const { id, class: className } = element.attribs;
  return `${element.name}${id ? `#${id}` : ''}${className ? `.${className.trim().split(/\s+/).join('.')}` : ''}`.slice(0, 70);
}

function pathOf(element: Element): string {
  const parts: string[] = [];
  for (let node: Element | null = element; node?.name; node = node.parent as Element | null) parts.unshift(describeElement(node));
  return `${parts.length}: ${parts.slice(-4).join(' > ')}`;
}

/** Replays the first extraction pass and prints what each step decided. */
function trace(html: string): void {
  const document = parseDocument(html);
  const body = findOne((element) => element.name === 'body', document.children);
  if (!body) return;
  for (const element of styleHiddenElements(document, body) ?? []) {
    console.log(`HIDDEN BY STYLES text=${measureText(element).get(element)?.text ?? 0} ${pathOf(element)}`);
    detach(element);
  }
  stripNonContent(body);
  const stats = measureText(body);
  const prose = measureProse(body, stats);
  const removed = removeChrome(body, { useClassHints: true, protectedElements: new Set(), stats, prose, totalProse: prose.get(body) ?? 0 });
  for (const [element, verdict] of removed) {
    const removedStats = stats.get(element)!;
    if (removedStats.text > 100) {
      console.log(
        `REMOVED ${verdict.rule} text=${removedStats.text} links=${Math.round((100 * removedStats.linkText) / removedStats.text)}% ${pathOf(element)}`,
      );
    }
  }
  const after = measureText(body);
  const { scores, root } = scoreContent(body, after);
  for (const [element, score] of [...scores].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
    console.log(`CANDIDATE ${score.toFixed(1)} text=${after.get(element)!.text} ${pathOf(element)}`);
  }
  console.log(`ROOT ${root ? `${pathOf(root)} text=${after.get(root)!.text}` : 'none'}`);
}

/** The traf errors of one page's Quarry output: `MISSING: ...` and `KEPT: ...` lines. */
function trafErrors(page: { with: string[]; without: string[] }, markdown: string, peer?: string): string[] {
  const text = collapseWhitespace(markdownToText(markdown));
  return [
    ...page.with
      .map(collapseWhitespace)
      .filter((snippet) => !text.includes(snippet) && (peer === undefined || peer.includes(snippet)))
      .map((snippet) => `MISSING: ${snippet}`),
    ...page.without
      .map(collapseWhitespace)
      .filter((snippet) => text.includes(snippet) && (peer === undefined || !peer.includes(snippet)))
      .map((snippet) => `KEPT: ${snippet}`),
  ];
}

/** A text as the aeb score reads it: its `\w+` tokens, one space apart. */
const tokensOf = (text: string): string => (text.match(/[\p{L}\p{N}_]+/gu) ?? []).join(' ');

/** An aeb page's output lines not in the ground truth (`+ ...`) and its paragraphs missing (`- ...`). */
function aebErrors(articleBody: string, markdown: string): string[] {
  const text = markdownToText(markdown);
  const truth = tokensOf(articleBody);
  const output = tokensOf(text);
  return [
    ...text
      .split('\n')
      .map(tokensOf)
      .filter((line) => line && !truth.includes(line))
      .map((line) => `+ ${line.slice(0, 200)}`),
    ...articleBody
      .split('\n')
      .map(tokensOf)
      .filter((paragraph) => paragraph && !output.includes(paragraph))
      .map((paragraph) => `- ${paragraph.slice(0, 200)}`),
  ];
}

/**
 * The outermost elements of the page's body a browser would not render that Quarry's first pass
 * keeps, each with why (`style` = hidden by a rule of the page's own `<style>`, `dialog` = a
 * `<dialog>` without `open`, `popover` = an element with the `popover` attribute), its text, and
 * the share of the body's text it holds.
 */
function unrenderedBlocks(html: string): { kinds: string[]; texts: string[]; share: number } {
  const document = parseDocument(html);
  const tokens = hiddenStyleTokens(document);
  const body = findOne((element) => element.name === 'body', document.children);
  const result = { kinds: [] as string[], texts: [] as string[], share: 0 };
  if (!body) return result;
  let total = 0;
  let hidden = 0;
  const stack: AnyNode[] = [...body.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') total += collapseWhitespace((node as unknown as { data: string }).data).length;
    if (!isTag(node) || isNonContent(node)) continue;
    const kind =
      tokens && isHiddenByStyles(node, tokens)
        ? 'style'
        : node.name === 'dialog' && !('open' in node.attribs)
          ? 'dialog'
          : 'popover' in node.attribs
            ? 'popover'
            : undefined;
    if (kind) {
      const text = collapseWhitespace(textContent(node));
      result.kinds.push(`${kind}:${describeElement(node)}`);
      result.texts.push(text);
      hidden += text.length;
      total += text.length;
      continue;
    }
    stack.push(...node.children);
  }
  result.share = total > 0 ? hidden / total : 0;
  return result;
}

if (args.includes('--unrendered')) {
  // Step 1 of task 13e: would dropping what the browser does not render help, and what would it cost?
  const tally = { gainPages: 0, gainSnippets: 0, riskPages: 0, riskSnippets: 0, lossNow: 0, pagesWithBlocks: 0 };
  const inBlocks = (blocks: string[], snippet: string): boolean => snippet.length > 0 && blocks.some((block) => block.includes(snippet));
  for (const page of loadTraf().filter(inTuning)) {
    const blocks = unrenderedBlocks(pageHtml(page.html));
    if (blocks.texts.length === 0) continue;
    tally.pagesWithBlocks++;
    const text = collapseWhitespace(markdownToText(extract(page.html, page.url).markdown));
    const gains = page.without.map(collapseWhitespace).filter((snippet) => text.includes(snippet) && inBlocks(blocks.texts, snippet));
    const risks = page.with.map(collapseWhitespace).filter((snippet) => inBlocks(blocks.texts, snippet));
    if (args.includes('--all-blocks')) {
      // Every block, its size and whether Quarry's output has its text (annotated or not).
      for (const [index, kind] of blocks.kinds.entries()) {
        const block = blocks.texts[index]!;
        const inOutput = block.length > 0 && text.includes(block.slice(0, 80));
        console.log(`  ${page.id.slice(0, 8)} ${kind} chars=${block.length}${inOutput ? ' IN OUTPUT' : ''} ${block.slice(0, 60)}`);
      }
    }
    if (gains.length + risks.length === 0) continue;
    const share = `${Math.round(100 * blocks.share)}%`;
    console.log(`traf ${page.id.slice(0, 8)} fold ${foldOf(page.url)} ${page.url} hidden share ${share}`);
    for (const kind of [...new Set(blocks.kinds)].slice(0, 6)) console.log(`    block ${kind}`);
    for (const snippet of gains) console.log(`  GAIN (kept boilerplate inside): ${snippet.slice(0, 120)}`);
    for (const snippet of risks) {
      const now = text.includes(snippet);
      if (now) tally.lossNow++;
      console.log(`  RISK (content inside${now ? ', Quarry keeps it now' : ''}): ${snippet.slice(0, 120)}`);
    }
    if (gains.length > 0) tally.gainPages++;
    if (risks.length > 0) tally.riskPages++;
    tally.gainSnippets += gains.length;
    tally.riskSnippets += risks.length;
  }
  console.log(`traf tally ${JSON.stringify(tally)}`);
  const aebTally = { gainPages: 0, gainLines: 0, riskPages: 0, riskParagraphs: 0, pagesWithBlocks: 0 };
  for (const page of loadAeb().filter(inTuning)) {
    const blocks = unrenderedBlocks(pageHtml(page.html));
    if (blocks.texts.length === 0) continue;
    aebTally.pagesWithBlocks++;
    const truth = collapseWhitespace(page.articleBody);
    const lines = markdownToText(extract(page.html, page.url).markdown)
      .split('\n')
      .map(collapseWhitespace)
      .filter((line) => line.length > 0 && !truth.includes(line) && inBlocks(blocks.texts, line));
    const risks = page.articleBody
      .split('\n')
      .map(collapseWhitespace)
      .filter((paragraph) => paragraph.length > 0 && inBlocks(blocks.texts, paragraph));
    if (lines.length + risks.length === 0) continue;
    console.log(`aeb ${page.id.slice(0, 8)} fold ${foldOf(page.url)} ${page.url} hidden share ${Math.round(100 * blocks.share)}%`);
    for (const kind of [...new Set(blocks.kinds)].slice(0, 6)) console.log(`    block ${kind}`);
    for (const line of lines) console.log(`  GAIN (non-article line inside): ${line.slice(0, 120)}`);
    for (const paragraph of risks) console.log(`  RISK (article text inside): ${paragraph.slice(0, 120)}`);
    if (lines.length > 0) aebTally.gainPages++;
    if (risks.length > 0) aebTally.riskPages++;
    aebTally.gainLines += lines.length;
    aebTally.riskParagraphs += risks.length;
  }
  console.log(`aeb tally ${JSON.stringify(aebTally)}`);
} else if (args.includes('--name-gap')) {
  // The errors made under opaque names only (`-`) or under the page's own names only (`+`): where
  // Quarry leans on class/id words, to be replaced by structure.
  for (const page of loadTraf().filter(inTuning)) {
    const named = trafErrors(page, extractPage(page.html, page.url).markdown);
    const opaque = trafErrors(page, extractPage(withOpaqueNames(page.html), page.url).markdown);
    for (const error of opaque) if (!named.includes(error)) console.log(`${page.id.slice(0, 8)} - opaque only ${error}  (${page.url})`);
    for (const error of named) if (!opaque.includes(error)) console.log(`${page.id.slice(0, 8)} + named only ${error}  (${page.url})`);
  }
  // aeb: the lines kept (+) or missed (-) in one mode only.
  for (const page of loadAeb().filter(inTuning)) {
    const named = aebErrors(page.articleBody, extractPage(page.html, page.url).markdown);
    const opaque = aebErrors(page.articleBody, extractPage(withOpaqueNames(page.html), page.url).markdown);
    for (const error of opaque) if (!named.includes(error)) console.log(`aeb ${page.id.slice(0, 8)} opaque only ${error}  (${page.url})`);
    for (const error of named) if (!opaque.includes(error)) console.log(`aeb ${page.id.slice(0, 8)} named only ${error}  (${page.url})`);
  }
} else if (args.includes('--traf-errors')) {
  /** `--versus`: only the snippets readability gets right (the structural decisions where it beats Quarry). */
  const isVersus = args.includes('--versus');
  for (const page of loadTraf().filter(inTuning)) {
    const peer = isVersus ? collapseWhitespace(markdownToText(readabilityExtractor(pageHtml(page.html), page.url).markdown)) : undefined;
    for (const error of trafErrors(page, extract(page.html, page.url).markdown, peer)) console.log(`${page.id.slice(0, 8)} ${error}`);
  }
} else {
  const aeb = loadAeb().find((page) => inTuning(page) && page.id.startsWith(prefix));
  const traf = aeb ? undefined : loadTraf().find((page) => inTuning(page) && page.id.startsWith(prefix));
  const page = aeb ?? traf;
  if (!page || prefix === '') throw new Error(`no page with id prefix "${prefix}" in folds ${chosenFolds.join(',')}`);
  const result = extract(page.html, page.url);
  const text = markdownToText(result.markdown);
  console.log(`# ${page.url} fallback=${result.isFallback ?? '-'}`);
  if (args.includes('--trace')) trace(pageHtml(page.html));
  if (aeb) {
    for (const error of aebErrors(aeb.articleBody, result.markdown)) console.log(error);
  } else if (traf) {
    const output = collapseWhitespace(text);
    for (const snippet of traf.with) if (!output.includes(collapseWhitespace(snippet))) console.log(`MISSING: ${snippet}`);
    for (const snippet of traf.without) if (output.includes(collapseWhitespace(snippet))) console.log(`KEPT: ${snippet}`);
  }
  console.log(`--- markdown\n${result.markdown}`);
}
