import type { RouteTable } from '@quarry/core/testing';

/**
 * A small shop for extract tests: product pages that state their facts as `Key: value` lines (what
 * the LLM doubles read) and as JSON-LD (what the structured-data path reads without a model).
 */
export interface ShopProduct {
  path: string;
  name: string;
  price?: number;
  tags?: string[];
}

export const shopProducts: ShopProduct[] = [
  { path: '/products/', name: 'Kettle', tags: ['sale'] },
  { path: '/products/kettle', name: 'Kettle', price: 39.5, tags: ['steel', 'tea'] },
  { path: '/products/pot', name: 'Pot', price: 39.5, tags: ['kitchen', 'tea'] },
];

export function shopPageHtml(product: ShopProduct, links: string[]): string {
  const facts = [
    `Name: ${product.name}`,
    product.price !== undefined ? `Price: ${product.price.toFixed(2)}` : '',
    product.tags ? `Tags: ${product.tags.join(', ')}` : '',
  ].filter(Boolean);
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    ...(product.price !== undefined ? { offers: { '@type': 'Offer', price: product.price.toFixed(2), priceCurrency: 'EUR' } } : {}),
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${product.name} | Shop</title>
<meta name="description" content="The ${product.name} of the shop.">
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script></head>
<body><main><article><h1>${product.name}</h1>
${facts.map((fact) => `<p>${fact}</p>`).join('\n')}
<p>Everything about the ${product.name.toLowerCase()}, written for people who like to read long product pages.</p>
<ul>${links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('')}</ul>
</article></main></body></html>`;
}

export function shopRoutes(): RouteTable {
  const routes: RouteTable = {};
  for (const product of shopProducts)
    routes[product.path] = { body: shopPageHtml(product, product.path === '/products/' ? ['/products/kettle', '/products/pot'] : ['/products/']) };
  routes['/robots.txt'] = { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' };
  return routes;
}
