import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { clientScript } from './client-script.js';
import { styles } from './styles.js';

/**
 * The dashboard's static assets: compiled into the package bundle at build time (no CDN, no files
 * to find at run time), served under content-hashed names with long caching.
 */
const contentHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

const assets = {
  [`dashboard.${contentHash(styles)}.css`]: { type: 'text/css; charset=utf-8', body: styles },
  [`dashboard.${contentHash(clientScript)}.js`]: { type: 'text/javascript; charset=utf-8', body: clientScript },
};

export const assetPaths = {
  css: `/dashboard/assets/dashboard.${contentHash(styles)}.css`,
  js: `/dashboard/assets/dashboard.${contentHash(clientScript)}.js`,
};

export function assetRoutes(scope: FastifyInstance): void {
  scope.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = Object.hasOwn(assets, request.params.name) ? assets[request.params.name] : undefined;
    if (!asset) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').send(asset.body);
  });
}
