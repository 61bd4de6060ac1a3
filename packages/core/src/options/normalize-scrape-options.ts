import type { TObject } from '@sinclair/typebox';
import { ValidationError, type FieldIssue } from '../errors.js';
import { actionLimits, actionSchemas, type Action } from './actions.js';
import { formatSchemas, type FormatSpec } from './formats.js';
import {
  scrapeOptionsSchemaV1,
  scrapeOptionsSchemaV2,
  type ApiVersion,
  type ScrapeOptions,
  type ScrapeOptionsV1,
  type ScrapeOptionsV2,
} from './scrape-options.js';
import { validate } from './validate.js';
import { jsonFormatIssues } from '../llm/json-format-issues.js';

/**
 * Validates scrape options of either API version and returns the one internal `ScrapeOptions`.
 * `prefix` names where the options sit in the request (e.g. `scrapeOptions`) so errors point there.
 * The input is not mutated.
 */
export function parseScrapeOptions(version: ApiVersion, input: unknown, prefix = ''): ScrapeOptions {
  const raw = input === undefined || input === null ? {} : structuredClone(input);
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ValidationError([{ field: prefix, message: `\`${prefix || 'options'}\` must be an object` }]);
  }
  const options =
    version === 'v1'
      ? fromV1(validate(scrapeOptionsSchemaV1, raw, prefix))
      : fromV2(validate(scrapeOptionsSchemaV2, formatNamesToObjects(raw as Record<string, unknown>), prefix));
  const issues = [
    ...crossFieldIssues(options, prefix),
    ...jsonFormatIssues(options.formats, jsonFieldOf(version, raw as Record<string, unknown>, options, prefix)),
  ];
  if (issues.length > 0) throw new ValidationError(issues);
  return options;
}

/** Where a json format's options sit in the request: `formats[i]` (v2), `jsonOptions` or `extract` (v1). */
function jsonFieldOf(version: ApiVersion, raw: Record<string, unknown>, options: ScrapeOptions, prefix: string): (index: number) => string {
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  if (version !== 'v1') return (index) => at(`formats[${index}]`);
  return (index) => {
    const isExtract = options.formats[index]?.resultKey === 'extract';
    return at(
      (isExtract ? raw.extract : raw.jsonOptions) !== undefined
        ? isExtract
          ? 'extract'
          : 'jsonOptions'
        : raw.jsonOptions !== undefined
          ? 'jsonOptions'
          : 'extract',
    );
  };
}

/** v2 accepts `formats: ["markdown"]` as well as `[{type: "markdown"}]`. */
function formatNamesToObjects(raw: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(raw.formats)) {
    raw.formats = raw.formats.map((format) => (typeof format === 'string' ? { type: format } : format));
  }
  return raw;
}

function fromV2(options: ScrapeOptionsV2): ScrapeOptions {
  const pdfParser = options.parsers.find((parser) => parser === 'pdf' || (typeof parser === 'object' && parser.type === 'pdf'));
  return {
    ...common(options),
    formats: options.formats.map((format) => withBranchDefaults(formatSchemas[format.type], format) as FormatSpec),
    parsePdf: pdfParser !== undefined,
    pdfMaxPages: typeof pdfParser === 'object' ? pdfParser.maxPages : undefined,
  };
}

function fromV1(options: ScrapeOptionsV1): ScrapeOptions {
  const formats: FormatSpec[] = [];
  for (const name of options.formats) {
    switch (name) {
      case 'screenshot':
        formats.push({ type: 'screenshot', fullPage: false });
        break;
      case 'screenshot@fullPage':
        formats.push({ type: 'screenshot', fullPage: true });
        break;
      case 'json':
      case 'extract': {
        const json = (name === 'json' ? options.jsonOptions : options.extract) ?? options.jsonOptions ?? options.extract ?? {};
        formats.push({
          type: 'json',
          ...(json.schema ? { schema: json.schema } : {}),
          ...(json.prompt ? { prompt: json.prompt } : {}),
          ...(json.systemPrompt ? { systemPrompt: json.systemPrompt } : {}),
          ...(name === 'extract' ? { resultKey: 'extract' } : {}),
        });
        break;
      }
      case 'changeTracking': {
        const tracking = options.changeTrackingOptions ?? {};
        formats.push(withBranchDefaults(formatSchemas.changeTracking, { type: 'changeTracking', ...tracking }) as FormatSpec);
        break;
      }
      default:
        formats.push({ type: name });
    }
  }
  return { ...common(options), formats, parsePdf: options.parsePDF, pdfMaxPages: undefined };
}

function common(options: ScrapeOptionsV1 | ScrapeOptionsV2): Omit<ScrapeOptions, 'formats' | 'parsePdf' | 'pdfMaxPages'> {
  return {
    onlyMainContent: options.onlyMainContent,
    includeTags: options.includeTags,
    excludeTags: options.excludeTags,
    maxAge: options.maxAge,
    headers: options.headers,
    waitFor: options.waitFor,
    mobile: options.mobile,
    skipTlsVerification: options.skipTlsVerification,
    timeout: options.timeout,
    actions: options.actions.map((action) => withBranchDefaults(actionSchemas[action.type], action) as Action),
    location: options.location,
    removeBase64Images: options.removeBase64Images,
    blockAds: options.blockAds,
    proxy: options.proxy === 'stealth' ? 'enhanced' : options.proxy,
    storeInCache: options.storeInCache,
    zeroDataRetention: options.zeroDataRetention ?? false,
  };
}

/** ajv does not apply defaults inside oneOf branches; the branch schema still holds them, so apply them here. */
function withBranchDefaults<T extends object>(branch: TObject, value: T): T {
  const out = { ...value } as Record<string, unknown>;
  for (const [key, property] of Object.entries(branch.properties)) {
    const fallback = (property as { default?: unknown }).default;
    if (out[key] === undefined && fallback !== undefined) out[key] = structuredClone(fallback);
  }
  return out as T;
}

function crossFieldIssues(options: ScrapeOptions, prefix: string): FieldIssue[] {
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  const issues: FieldIssue[] = [];
  if (options.waitFor > options.timeout / 2) {
    issues.push({
      field: at('waitFor'),
      message: `\`${at('waitFor')}\` must not exceed half of timeout (${options.timeout / 2} ms); got ${options.waitFor}`,
    });
  }
  if (options.actions.length > actionLimits.maxActions) {
    issues.push({ field: at('actions'), message: `\`${at('actions')}\` may hold at most ${actionLimits.maxActions} actions; got ${options.actions.length}` });
  }
  options.actions.forEach((action, index) => {
    if (action.type === 'wait' && (action.milliseconds === undefined) === (action.selector === undefined)) {
      issues.push({
        field: at(`actions[${index}]`),
        message: `\`${at(`actions[${index}]`)}\` (wait) needs exactly one of milliseconds or selector`,
      });
    }
  });
  const totalWait =
    options.waitFor +
    options.actions.reduce((sum, action) => sum + (action.type === 'wait' ? (action.milliseconds ?? actionLimits.selectorWaitCountsMs) : 0), 0);
  if (totalWait > actionLimits.maxTotalWaitMs) {
    issues.push({
      field: at('actions'),
      message: `waitFor plus all wait actions must not exceed ${actionLimits.maxTotalWaitMs} ms; got ${totalWait}`,
    });
  }
  const screenshots = options.formats.filter((format) => format.type === 'screenshot');
  if (screenshots.length > 1) {
    issues.push({ field: at('formats'), message: `\`${at('formats')}\` may hold only one screenshot format; got ${screenshots.length}` });
  }
  options.formats.forEach((format, index) => {
    if (format.type === 'json' && !format.schema && !format.prompt) {
      issues.push({ field: at(`formats[${index}]`), message: `\`${at(`formats[${index}]`)}\` (json) needs a schema or a prompt` });
    }
  });
  const types = new Set(options.formats.map((format) => `${format.type}:${format.resultKey ?? ''}`));
  if (types.size !== options.formats.length) {
    issues.push({ field: at('formats'), message: `\`${at('formats')}\` must not repeat a format` });
  }
  return issues;
}
