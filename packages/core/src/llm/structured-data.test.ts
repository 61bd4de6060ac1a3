import { describe, expect, it } from 'vitest';
import { fillSchemaFromStructuredData } from './fill-from-structured-data.js';
import { readStructuredData } from './structured-data.js';

const productPage = `<!doctype html><html><head>
<title>Acme Kettle | Shop</title>
<meta name="description" content="A kettle that boils fast.">
<meta property="og:title" content="Acme Kettle (OG)">
<meta property="og:image" content="https://shop.test/kettle.jpg">
<meta property="product:price:amount" content="41.00">
<link rel="canonical" href="/p/kettle">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
  {"@type":"Organization","name":"Acme Inc","url":"https://shop.test/"},
  {"@type":"Product","name":"Acme Kettle","sku":"K-1","brand":{"@type":"Brand","name":"Acme"},
   "offers":{"@type":"Offer","price":"39.50","priceCurrency":"EUR","availability":"https://schema.org/InStock"},
   "aggregateRating":{"@type":"AggregateRating","ratingValue":"4.6","reviewCount":"12"},
   "review":[{"@type":"Review","author":{"@type":"Person","name":"Ann"},"reviewBody":"Great"},{"@type":"Review","author":{"@type":"Person","name":"Bo"},"reviewBody":"Fine"}]}
]}</script>
<script type="application/ld+json">{ not json </script>
</head><body><h1>Acme Kettle</h1></body></html>`;

describe('readStructuredData', () => {
  it('reads JSON-LD (graph flattened, broken blocks skipped), OpenGraph, meta and canonical', () => {
    const data = readStructuredData(productPage, 'https://shop.test/p/kettle?ref=1');
    expect(data.jsonLd.map((item) => item['@type'])).toEqual(['Organization', 'Product']);
    expect(data.openGraph).toMatchObject({ 'og:title': 'Acme Kettle (OG)', 'product:price:amount': '41.00' });
    expect(data.meta).toMatchObject({ title: 'Acme Kettle | Shop', description: 'A kettle that boils fast.', canonical: 'https://shop.test/p/kettle' });
  });

  it('reads microdata with nested items and value attributes', () => {
    const html = `<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Soup</h1>
      <time itemprop="cookTime" datetime="PT30M">half an hour</time>
      <div itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Cleo</span></div>
      <a itemprop="url" href="/soup">link</a><meta itemprop="recipeYield" content="4"></div>`;
    expect(readStructuredData(html, 'https://food.test/').microdata).toEqual([
      {
        type: 'Recipe',
        properties: {
          name: 'Soup',
          cookTime: 'PT30M',
          author: { type: 'Person', properties: { name: 'Cleo' } },
          url: 'https://food.test/soup',
          recipeYield: '4',
        },
      },
    ]);
  });

  it('reads RDFa items and tables with a header row', () => {
    const html = `<div vocab="https://schema.org/" typeof="Event"><span property="name">Launch</span><span property="schema:startDate" content="2025-05-01">May 1</span></div>
      <table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Basic</td><td>$10</td></tr><tr><td>Pro</td><td>$25</td></tr></tbody></table>
      <table><tr><td>no</td><td>header</td></tr></table>`;
    const data = readStructuredData(html, 'https://e.test/');
    expect(data.rdfa).toEqual([{ type: 'Event', properties: { name: 'Launch', startDate: '2025-05-01' } }]);
    expect(data.tables).toEqual([
      {
        headers: ['Plan', 'Price'],
        rows: [
          ['Basic', '$10'],
          ['Pro', '$25'],
        ],
      },
    ]);
  });
});

describe('fillSchemaFromStructuredData', () => {
  it('fills fields from the best-matching item, by name and synonym, converted to the schema types', () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        price: { type: 'number' },
        currency: { type: 'string' },
        inStock: { type: 'boolean' },
        brand: { type: 'string' },
        rating: { type: 'number' },
        image: { type: 'string' },
        reviews: { type: 'array', items: { type: 'object', properties: { author: { type: 'string' }, reviewBody: { type: 'string' } } } },
        warrantyYears: { type: 'integer' },
      },
    };
    const fill = fillSchemaFromStructuredData(schema, readStructuredData(productPage, 'https://shop.test/p/kettle'));
    expect(fill.value).toEqual({
      title: 'Acme Kettle',
      price: 39.5,
      currency: 'EUR',
      brand: 'Acme',
      rating: 4.6,
      image: 'https://shop.test/kettle.jpg',
      reviews: [
        { author: 'Ann', reviewBody: 'Great' },
        { author: 'Bo', reviewBody: 'Fine' },
      ],
    });
    expect(fill.missing).toEqual(['inStock', 'warrantyYears']);
    expect(fill.sources).toEqual(['JSON-LD', 'OpenGraph']);
  });

  it("fills an array of objects from the page's one matching table", () => {
    const html = '<table><tr><th>Plan</th><th>Monthly price</th></tr><tr><td>Basic</td><td>$10</td></tr><tr><td>Pro</td><td>$1,250.50</td></tr></table>';
    const schema = {
      type: 'object',
      properties: { plans: { type: 'array', items: { type: 'object', properties: { plan: { type: 'string' }, monthlyPrice: { type: 'number' } } } } },
    };
    const fill = fillSchemaFromStructuredData(schema, readStructuredData(html, 'https://p.test/'));
    expect(fill.value).toEqual({
      plans: [
        { plan: 'Basic', monthlyPrice: 10 },
        { plan: 'Pro', monthlyPrice: 1250.5 },
      ],
    });
    expect(fill.sources).toEqual(['table']);
  });

  it('fills from meta tags alone and reports what it could not find', () => {
    const html = '<head><title>Hello</title><meta name="description" content="About us"><meta name="author" content="Dee"></head>';
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, description: { type: 'string' }, author: { type: 'string' }, price: { type: 'number' } },
    };
    expect(fillSchemaFromStructuredData(schema, readStructuredData(html, 'https://m.test/'))).toEqual({
      value: { title: 'Hello', description: 'About us', author: 'Dee' },
      filled: ['title', 'description', 'author'],
      missing: ['price'],
      sources: ['meta tags'],
    });
  });

  it('fills nested objects from the nested item', () => {
    const html =
      '<script type="application/ld+json">{"@type":"Article","headline":"News","author":{"@type":"Person","name":"Eve","url":"https://x.test/eve"},"datePublished":"2024-03-01"}</script>';
    const schema = {
      type: 'object',
      properties: {
        headline: { type: 'string' },
        author: { type: 'object', properties: { name: { type: 'string' }, url: { type: 'string' } } },
        publishedAt: { type: 'string' },
      },
    };
    expect(fillSchemaFromStructuredData(schema, readStructuredData(html, 'https://x.test/')).value).toEqual({
      headline: 'News',
      author: { name: 'Eve', url: 'https://x.test/eve' },
      publishedAt: '2024-03-01',
    });
  });
});
