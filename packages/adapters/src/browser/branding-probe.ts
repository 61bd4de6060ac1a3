/**
 * The branding probe: plain JavaScript evaluated in the rendered page, returning the raw
 * measurements of core's `BrandingProbe` (computed styles of body, headings, links, buttons,
 * inputs; painted backgrounds; font usage; color custom properties; logo, favicon, og:image;
 * CSS framework hints). Core's `brandingFromProbe` turns them into the branding format.
 *
 * Kept as source text rather than a function so no bundler helper leaks into the page.
 */
export const brandingProbeSource = String.raw`(() => {
  const limit = (list, count) => list.slice(0, count);
  const style = (element) => getComputedStyle(element);
  const isVisible = (element) => {
    const rect = element.getBoundingClientRect();
    const computed = style(element);
    return rect.width > 0 && rect.height > 0 && computed.visibility !== 'hidden' && computed.display !== 'none' && Number(computed.opacity) > 0.05;
  };
  const sample = (element) => {
    const computed = style(element);
    return { color: computed.color, backgroundColor: computed.backgroundColor, fontFamily: computed.fontFamily, fontSize: computed.fontSize, fontWeight: computed.fontWeight, lineHeight: computed.lineHeight };
  };
  const first = (selector) => Array.from(document.querySelectorAll(selector)).find(isVisible);
  const transparent = (color) => !color || color === 'transparent' || /rgba\(.*,\s*0\)$/.test(color);
  const bodyStyle = style(document.body);
  const htmlStyle = style(document.documentElement);
  const pageBackground = transparent(bodyStyle.backgroundColor) ? (transparent(htmlStyle.backgroundColor) ? 'rgb(255, 255, 255)' : htmlStyle.backgroundColor) : bodyStyle.backgroundColor;
  const box = (element) => {
    const computed = style(element);
    const rect = element.getBoundingClientRect();
    return Object.assign(sample(element), {
      text: (element.innerText || element.value || '').trim().slice(0, 60),
      borderColor: computed.borderTopColor,
      borderRadius: [computed.borderTopLeftRadius, computed.borderTopRightRadius, computed.borderBottomRightRadius, computed.borderBottomLeftRadius],
      boxShadow: computed.boxShadow,
      area: Math.round(rect.width * rect.height),
      isFilled: !transparent(computed.backgroundColor) && computed.backgroundColor !== pageBackground,
    });
  };
  const buttons = limit(Array.from(document.querySelectorAll('button, a[role="button"], input[type="submit"], input[type="button"], a[class*="btn"], a[class*="button"], [class*="button"]:is(a,span)')).filter(isVisible), 40).map(box);
  const inputs = limit(Array.from(document.querySelectorAll('input:not([type="hidden"]):not([type="submit"]):not([type="button"]):not([type="checkbox"]):not([type="radio"]), textarea, select')).filter(isVisible), 10).map(box);
  const backgrounds = new Map();
  const fonts = new Map();
  const elements = limit(Array.from(document.body.querySelectorAll('*')), 3000);
  for (const element of elements) {
    const computed = style(element);
    if (!transparent(computed.backgroundColor)) {
      const rect = element.getBoundingClientRect();
      const area = rect.width * rect.height;
      if (area > 0) backgrounds.set(computed.backgroundColor, (backgrounds.get(computed.backgroundColor) || 0) + area);
    }
    let characters = 0;
    for (const node of element.childNodes) if (node.nodeType === 3) characters += node.textContent.trim().length;
    if (characters > 0) {
      const entry = fonts.get(computed.fontFamily) || { stack: computed.fontFamily, characters: 0, tags: [] };
      entry.characters += characters;
      const tag = element.tagName.toLowerCase();
      if (!entry.tags.includes(tag) && entry.tags.length < 8) entry.tags.push(tag);
      fonts.set(computed.fontFamily, entry);
    }
  }
  const colorVariables = {};
  let variableCount = 0;
  for (const sheet of Array.from(document.styleSheets)) {
    let rules;
    try { rules = sheet.cssRules; } catch { continue; }
    for (const rule of Array.from(rules || [])) {
      if (!rule.style || !/^(:root|html|body)$/.test((rule.selectorText || '').trim())) continue;
      for (const name of Array.from(rule.style)) {
        if (!name.startsWith('--') || variableCount >= 60) continue;
        const value = htmlStyle.getPropertyValue(name).trim();
        if (/^(#[0-9a-f]{3,8}|rgba?\(|hsla?\(|oklch\(|color\()/i.test(value)) {
          const probe = document.createElement('span');
          probe.style.color = value;
          document.body.appendChild(probe);
          colorVariables[name] = style(probe).color;
          probe.remove();
          variableCount++;
        }
      }
    }
  }
  const classes = document.documentElement.outerHTML.slice(0, 400000);
  const count = (pattern) => (classes.match(pattern) || []).length;
  const frameworkHints = {
    tailwind: count(/class="[^"]*\b(?:flex|px-\d|py-\d|text-(?:sm|lg|xl)|bg-[a-z]+-\d{2,3}|rounded-(?:md|lg|full))\b/g),
    bootstrap: count(/class="[^"]*\b(?:btn-primary|container-fluid|col-(?:sm|md|lg)-\d+|navbar-expand)\b/g),
    material: count(/class="[^"]*\b(?:Mui[A-Z][A-Za-z]+-root|mdc-[a-z-]+|mat-[a-z-]+)\b/g),
    chakra: count(/class="[^"]*\bchakra-[a-z-]+\b/g),
  };
  const meta = (selector) => { const element = document.querySelector(selector); return element ? element.getAttribute('content') || undefined : undefined; };
  const absolute = (value) => { try { return value ? new URL(value, document.baseURI).href : undefined; } catch { return undefined; } };
  const logoElement = Array.from(document.querySelectorAll('header img, nav img, a[href="/"] img, [class*="logo"] img, img[class*="logo"], img[alt*="logo" i], img[src*="logo" i], header svg, [class*="logo"] svg')).find(isVisible);
  let logo;
  if (logoElement) {
    const link = logoElement.closest('a');
    const src = logoElement.tagName.toLowerCase() === 'svg' ? 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(logoElement.outerHTML))) : absolute(logoElement.currentSrc || logoElement.getAttribute('src'));
    if (src) logo = { src, alt: logoElement.getAttribute('alt') || undefined, href: link ? absolute(link.getAttribute('href')) : undefined };
  }
  const icon = document.querySelector('link[rel~="icon"], link[rel="shortcut icon"], link[rel="apple-touch-icon"]');
  const headings = {};
  for (const level of ['h1', 'h2', 'h3']) { const element = first(level); if (element) headings[level] = sample(element); }
  const paragraph = first('main p, article p, p');
  const small = first('small, .small, figcaption, footer p');
  const code = first('code, pre, kbd');
  return {
    declaredColorScheme: meta('meta[name="color-scheme"]') || (htmlStyle.colorScheme !== 'normal' ? htmlStyle.colorScheme : undefined),
    themeColor: meta('meta[name="theme-color"]'),
    body: sample(document.body),
    pageBackground,
    headings,
    paragraph: paragraph ? sample(paragraph) : undefined,
    small: small ? sample(small) : undefined,
    code: code ? sample(code) : undefined,
    links: limit(Array.from(document.querySelectorAll('main a[href], article a[href], p a[href], a[href]')).filter(isVisible), 5).map(sample),
    buttons,
    inputs,
    backgrounds: limit(Array.from(backgrounds, ([color, area]) => ({ color, area: Math.round(area) })).sort((a, b) => b.area - a.area), 12),
    fontUsage: limit(Array.from(fonts.values()).sort((a, b) => b.characters - a.characters), 10),
    colorVariables,
    logo,
    favicon: icon ? absolute(icon.getAttribute('href')) : absolute('/favicon.ico'),
    ogImage: absolute(meta('meta[property="og:image"]') || meta('meta[name="og:image"]')),
    frameworkHints,
  };
})()`;
