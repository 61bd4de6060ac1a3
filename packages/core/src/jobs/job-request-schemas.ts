import { QuarryError, ValidationError, type FieldIssue } from '../errors.js';
import { validate } from '../options/validate.js';
import type { JobBase, JobKind, JobRecord } from '../ports/job-store.js';
import { requestSchemas } from './stored-request-schemas.js';

const isJobKind = (kind: string): kind is JobKind => Object.hasOwn(requestSchemas, kind);

/** A stored job whose kind or request does not match what Quarry writes: a data problem of the store, not of the caller. */
export class StoredJobError extends QuarryError {
  readonly issues: FieldIssue[];
  constructor(jobId: string, kind: string, issues: FieldIssue[]) {
    super('internal', `Stored job ${jobId} (kind ${kind}) is malformed: ${issues.map((issue) => issue.message).join('; ')}`, {
      details: { jobId, kind, issues },
    });
    this.issues = issues;
  }
}

/**
 * A job as read from a store, checked once: its kind is known and its request has that kind's
 * shape. Otherwise a StoredJobError naming the job and each field (`request.options.limit`).
 */
export function storedJob(fields: JobBase & { kind: string; request: unknown }): JobRecord {
  const { kind, request } = fields;
  if (!isJobKind(kind))
    throw new StoredJobError(fields.id, kind, [
      { field: 'kind', message: `\`kind\` must be one of ${Object.keys(requestSchemas).join(', ')}; got ${JSON.stringify(kind)}` },
    ]);
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw new StoredJobError(fields.id, kind, [{ field: 'request', message: '`request` must be an object' }]);
  }
  try {
    validate(requestSchemas[kind], request, 'request');
  } catch (error) {
    if (error instanceof ValidationError) throw new StoredJobError(fields.id, kind, error.issues);
    throw error;
  }
  // The check above is what makes this record's request the one its kind declares.
  return { ...fields, kind, request } as JobRecord;
}
