import { randomBytes } from 'node:crypto';
import { AwsClient } from 'aws4fetch';
import { blobIdPattern, QuarryError, ValidationError, type BlobStore, type StoredBlob } from '@quarry/core';

export interface S3BlobStoreOptions {
  /** The service's base URL, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  endpoint: string;
  bucket: string;
  /** Signing region; S3-compatible servers mostly accept `us-east-1`. */
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix inside the bucket, e.g. `quarry/`; blobs are `<prefix><id>`. */
  prefix?: string;
  /** Largest blob accepted, in bytes; a bigger `put` is refused with a ValidationError. */
  maxBytes?: number;
  /** How long one request may take before it fails as `unavailable`. */
  timeoutMs?: number;
}

const defaultMaxBytes = 32 * 1024 * 1024;
const defaultTimeoutMs = 30_000;

/**
 * BlobStore in an S3-compatible bucket (AWS S3, MinIO, R2, Ceph...), for operators who have one:
 * every process that is given the same bucket reads what any of them wrote. One object per blob at
 * `<prefix><id>`, its content type the object's Content-Type. Requests are signed with AWS
 * Signature V4 and addressed path-style (`<endpoint>/<bucket>/<key>`), which every S3-compatible
 * server accepts. A PUT is atomic in S3, so a reader sees all of a blob or none. `delete` asks HEAD
 * first, since S3 answers a DELETE of a missing key with 204 too.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: AwsClient;
  private readonly base: string;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new AwsClient({ accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, service: 's3', region: options.region });
    this.base = `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}/`;
  }

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    if (/[\r\n]/.test(contentType)) throw new ValidationError('`contentType` must be one line', 'contentType');
    const maxBytes = this.options.maxBytes ?? defaultMaxBytes;
    if (bytes.byteLength > maxBytes) throw new ValidationError(`a blob must be at most ${maxBytes} bytes; got ${bytes.byteLength}`, 'bytes');
    const id = randomBytes(16).toString('hex');
    const response = await this.send(id, { method: 'PUT', body: bytes, headers: { 'content-type': contentType } });
    await this.expect(response, [200], 'PUT');
    return id;
  }

  async get(id: string): Promise<StoredBlob | undefined> {
    if (!blobIdPattern.test(id)) return undefined;
    const response = await this.send(id, { method: 'GET' });
    if (response.status === 404) return (await response.body?.cancel(), undefined);
    await this.expect(response, [200], 'GET');
    return { contentType: response.headers.get('content-type') ?? 'application/octet-stream', bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  async delete(id: string): Promise<boolean> {
    if (!blobIdPattern.test(id)) return false;
    const head = await this.send(id, { method: 'HEAD' });
    if (head.status === 404) return false;
    await this.expect(head, [200], 'HEAD');
    await this.expect(await this.send(id, { method: 'DELETE' }), [200, 204], 'DELETE');
    return true;
  }

  private async send(id: string, init: RequestInit): Promise<Response> {
    const url = `${this.base}${encodeURIComponent(`${this.options.prefix ?? ''}${id}`).replace(/%2F/g, '/')}`;
    try {
      return await this.client.fetch(url, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs ?? defaultTimeoutMs) });
    } catch (error) {
      throw new QuarryError(
        'unavailable',
        `The blob store is unavailable (${error instanceof Error ? error.message : String(error)}); retry in a few seconds`,
        { cause: error, retryable: true },
      );
    }
  }

  /** A status other than the expected ones is the bucket refusing (credentials, missing bucket): an internal error naming it. */
  private async expect(response: Response, statuses: number[], method: string): Promise<void> {
    if (statuses.includes(response.status)) {
      if (method !== 'GET') await response.body?.cancel();
      return;
    }
    const text = (await response.text().catch(() => '')).slice(0, 300);
    const retryable = response.status >= 500;
    throw new QuarryError(retryable ? 'unavailable' : 'internal', `The blob store answered ${method} with HTTP ${response.status}${text ? `: ${text}` : ''}`, {
      retryable,
    });
  }
}
