/**
 * Text that labels pictures rather than telling the article, found by structure alone (no class or
 * id names, so it holds on sites whose names mean nothing): a label repeated under several pictures,
 * and the captions and controls of a gallery. A caption under a single figure in the article's flow
 * stays: it describes that figure.
 */
import { type Element, type ParentNode, isTag, isText } from 'domhandler';
import { collapsedText, descendantElements, detachUnsettled, settleDetached, sharedElements } from './dom-tools.js';
import { type TextStats, discountStats } from './text-stats.js';

/** Longest label (weighted characters): a caption line, not a paragraph. */
const labelMaximum = 200;
/** Pictures that must carry the same label before it counts as a label of none of them. */
const repeatedLabelMinimum = 3;
/** Items a run needs to be a gallery. */
const galleryItemMinimum = 3;
/** Most text (weighted characters) of one gallery item: a picture and its short caption. */
const galleryItemTextMaximum = 400;
/** Most text of a control line beside a gallery ("1 of 6", "Close"). */
const galleryControlMaximum = 24;

/** The element sibling before `element`, past blank text. */
function previousElement(element: Element): Element | undefined {
  let previous = element.prev;
  while (previous && isText(previous) && previous.data.trim() === '') previous = previous.prev;
  return previous && isTag(previous) ? previous : undefined;
}

/**
 * A short block that sits with one picture: right after a block that is only pictures, or the only
 * text of a wrapper that holds one picture (a `div` of an image and its caption line).
 */
function isPictureLabel(element: Element, stats: Map<Element, TextStats>): boolean {
  const own = stats.get(element);
  if (!own || own.text === 0 || own.text > labelMaximum || own.images > 0) return false;
  const previous = previousElement(element);
  const previousStats = previous && stats.get(previous);
  if (previousStats && previousStats.images > 0 && previousStats.text === 0) return true;
  const parent = element.parent;
  const parentStats = parent && isTag(parent) ? stats.get(parent) : undefined;
  return !!parentStats && parentStats.images === 1 && parentStats.text === own.text;
}

/**
 * The same label under three or more pictures (a post that puts the event's name under every
 * photo) describes none of them: every copy goes, the first too, and so do labels that begin with it.
 */
function removeRepeatedPictureLabels(container: Element, stats: Map<Element, TextStats>): void {
  const byText = new Map<string, Element[]>();
  for (const element of sharedElements(container)) {
    if (!isPictureLabel(element, stats)) continue;
    const text = collapsedText(element);
    const copies = byText.get(text);
    if (copies) copies.push(element);
    else byText.set(text, [element]);
  }
  const repeated = [...byText.keys()].filter((text) => byText.get(text)!.length >= repeatedLabelMinimum);
  if (repeated.length === 0) return;
  // Taken out with one pass per parent at the end, not a search and a splice each: the copies are
  // siblings by the thousand in a tail the parser flattened.
  const unsettled = new Set<ParentNode>();
  for (const [text, copies] of byText) {
    // The repeated label with a few words added under one picture ("..., Training team_Kim Hana") is it too.
    if (!repeated.some((label) => text.startsWith(label))) continue;
    for (const copy of copies) {
      if (!copy.parent) continue;
      discountStats(copy, stats, container);
      detachUnsettled(copy, unsettled);
    }
  }
  settleDetached(unsettled);
}

/** One gallery slide: a figure (or a wrapper of one) with a single picture and a short text. */
function isGalleryItem(element: Element, stats: Map<Element, TextStats>): boolean {
  const own = stats.get(element);
  if (own?.images !== 1 || own.text > galleryItemTextMaximum) return false;
  return element.name === 'figure' || descendantElements(element, (inner) => inner.name === 'figure').length === 1;
}

/** The runs of three or more sibling gallery items of one tag under `parent`. */
function galleryRuns(parent: Element, stats: Map<Element, TextStats>): Element[][] {
  const runs: Element[][] = [];
  let run: Element[] = [];
  const flush = (): void => {
    if (run.length >= galleryItemMinimum) runs.push(run);
    run = [];
  };
  for (const child of parent.children) {
    if (!isTag(child)) {
      if (isText(child) && child.data.trim() !== '') flush();
      continue;
    }
    if (isGalleryItem(child, stats) && (run.length === 0 || run[0]!.name === child.name)) run.push(child);
    else {
      flush();
      if (isGalleryItem(child, stats)) run.push(child);
    }
  }
  flush();
  return runs;
}

/**
 * Detaches the parts of `element` that hold text and no picture; the pictures stay. They leave
 * their parents' `children` at `settleDetached(unsettled)`.
 */
function removeTextBesidePictures(element: Element, stats: Map<Element, TextStats>, container: Element, unsettled: Set<ParentNode>): void {
  for (const child of [...element.children]) {
    if (!isTag(child)) continue;
    const childStats = stats.get(child);
    if (!childStats || childStats.text === 0) continue;
    if (childStats.images === 0) {
      discountStats(child, stats, container);
      detachUnsettled(child, unsettled);
    } else removeTextBesidePictures(child, stats, container, unsettled);
  }
}

/**
 * The wrapper of a gallery run: up from the run's parent while the ancestor holds little besides
 * the run (its counter, arrows, an empty title), so that its controls are found.
 */
function galleryWrapper(run: Element[], stats: Map<Element, TextStats>, container: Element): Element {
  const runText = run.reduce((sum, item) => sum + (stats.get(item)?.text ?? 0), 0);
  let wrapper = run[0]!.parent as Element;
  while (wrapper !== container && wrapper.parent && isTag(wrapper.parent)) {
    const outer = stats.get(wrapper.parent);
    if (!outer || outer.text - runText > 2 * galleryControlMaximum) break;
    wrapper = wrapper.parent;
  }
  return wrapper;
}

/**
 * A gallery: three or more sibling figures, each one picture and a short text and no prose. Its
 * captions and credits go, and with them the short control lines in its wrapper ("1 of 6"); the
 * pictures stay.
 */
function removeGalleryLabels(container: Element, stats: Map<Element, TextStats>): void {
  // A run's captions and controls leave their parents' `children` in one pass per parent once the
  // run is done, not a search and a splice each: a tail the parser flattened past its depth bound
  // holds thousands of them side by side (nested picture cards, 4 MB: 24 s in domutils' removeElement).
  const unsettled = new Set<ParentNode>();
  for (const parent of sharedElements(container)) {
    if (!parent.parent) continue;
    const parentStats = stats.get(parent);
    if (!parentStats || parentStats.images < galleryItemMinimum) continue;
    for (const run of galleryRuns(parent, stats)) {
      const wrapper = galleryWrapper(run, stats, container);
      for (const item of run) removeTextBesidePictures(item, stats, container, unsettled);
      settleDetached(unsettled);
      const inRun = new Set(run);
      for (const element of descendantElements(wrapper)) {
        if (!element.parent || inRun.has(element)) continue;
        const elementStats = stats.get(element);
        if (!elementStats || elementStats.images > 0 || elementStats.text === 0 || elementStats.text > galleryControlMaximum) continue;
        discountStats(element, stats, container);
        detachUnsettled(element, unsettled);
      }
      settleDetached(unsettled);
    }
  }
}

/** Least share of a banner figure's text inside its links (a credit may sit outside them). */
const bannerLinkShare = 0.4;

/**
 * A banner: a figure whose picture and caption are links to one same page (a subscription offer
 * under an article). A figure of the article links its picture to the picture, if at all, and
 * does not make its caption a link to it.
 */
/** A link to a picture file: the figure's zoom, whatever its caption links. */
const imageFilePattern = /\.(?:jpe?g|png|gif|webp|avif|svg)(?:[?#]|$)/i;

/** A link's address without the blanks a template may leave at its end (`...campaign=x%20`). */
function linkTarget(link: Element): string {
  return (link.attribs.href ?? '').replace(/(?:\s|%20)+$/i, '').trim();
}

function isBannerFigure(figure: Element, stats: Map<Element, TextStats>): boolean {
  const figureStats = stats.get(figure);
  if (!figureStats || figureStats.images === 0 || figureStats.text === 0) return false;
  if (figureStats.linkText < bannerLinkShare * figureStats.text) return false;
  const links = descendantElements(figure, (element) => element.name === 'a');
  const target = links[0] && linkTarget(links[0]);
  if (!target || imageFilePattern.test(target) || links.some((link) => linkTarget(link) !== target)) return false;
  const linkStats = links.map((link) => stats.get(link));
  return linkStats.some((own) => !!own && own.images > 0) && linkStats.some((own) => !!own && own.text > 0 && own.images === 0);
}

function removeBannerFigures(container: Element, stats: Map<Element, TextStats>): void {
  const unsettled = new Set<ParentNode>();
  for (const figure of descendantElements(container, (element) => element.name === 'figure')) {
    if (!figure.parent || !isBannerFigure(figure, stats)) continue;
    discountStats(figure, stats, container);
    detachUnsettled(figure, unsettled);
  }
  settleDetached(unsettled);
}

/** Removes picture labels found by structure: repeated labels, gallery captions and controls, banners. */
export function removePictureLabels(container: Element, stats: Map<Element, TextStats>): void {
  removeRepeatedPictureLabels(container, stats);
  removeGalleryLabels(container, stats);
  removeBannerFigures(container, stats);
}
