/**
 * Page templates that reproduce the DOM of common documentation generators around a rendered
 * markdown body: navbar, sidebar, table of contents, footer, heading permalinks and code-block
 * widgets, as each generator writes them. The body's own structure is never changed, only dressed.
 */

export interface Heading {
  level: number;
  /** Inner HTML of the heading as rendered. */
  inner: string;
  id: string;
  text: string;
}

export interface Template {
  name: string;
  /** The heading as this generator writes it (with its permalink widget). */
  heading(heading: Heading): string;
  /** A fenced code block as this generator writes it; `code` is escaped HTML, `language` may be ''. */
  code(code: string, language: string): string;
  /** The whole page around the dressed body. */
  page(parts: { title: string; body: string; toc: Heading[]; siblings: string[] }): string;
}

const sidebarLinks = (siblings: string[], item: (name: string, index: number) => string): string => siblings.map(item).join('\n');

const tocLinks = (toc: Heading[], item: (heading: Heading) => string): string =>
  toc
    .filter((heading) => heading.level === 2 || heading.level === 3)
    .map(item)
    .join('\n');

const head = (title: string, extra = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Docs</title><meta name="viewport" content="width=device-width, initial-scale=1">${extra}<link rel="stylesheet" href="/assets/main.css"><script src="/assets/main.js" defer></script></head>`;

const docusaurus: Template = {
  name: 'docusaurus',
  heading: ({ level, inner, id }) =>
    level === 1
      ? `<header><h1>${inner}</h1></header>`
      : `<h${level} class="anchor anchorWithStickyNavbar_LWe7" id="${id}">${inner}<a href="#${id}" class="hash-link" aria-label="Direct link to ${id}" title="Direct link to ${id}">\u200b</a></h${level}>`,
  code: (code, language) =>
    `<div class="language-${language || 'text'} codeBlockContainer_Ckt0 theme-code-block"><div class="codeBlockContent_biex"><pre tabindex="0" class="prism-code language-${language || 'text'} codeBlock_bY9V thin-scrollbar"><code class="codeBlockLines_e6Vv">${code}</code></pre><div class="buttonGroup__atx"><button type="button" aria-label="Copy code to clipboard" title="Copy" class="clean-btn"><span class="copyButtonIcons_eSgA" aria-hidden="true">Copy</span></button></div></div></div>`,
  page: ({
    title,
    body,
    toc,
    siblings,
  }) => `${head(title)}<body class="navigation-with-keyboard"><div id="__docusaurus"><div role="region" aria-label="Skip to main content"><a class="skipToContent_fXgn" href="#__docusaurus_skipToContent_fallback">Skip to main content</a></div>
<nav aria-label="Main" class="navbar navbar--fixed-top"><div class="navbar__inner"><div class="navbar__items"><a class="navbar__brand" href="/"><b class="navbar__title text--truncate">Project</b></a><a class="navbar__item navbar__link" href="/docs/intro">Docs</a><a class="navbar__item navbar__link" href="/api">API</a><a class="navbar__item navbar__link" href="/blog">Blog</a></div><div class="navbar__items navbar__items--right"><a href="https://github.com/example/project" class="navbar__item navbar__link">GitHub</a><div class="navbarSearchContainer_Bca1"><button type="button" class="DocSearch DocSearch-Button" aria-label="Search"><span class="DocSearch-Button-Placeholder">Search</span></button></div></div></div></nav>
<div id="__docusaurus_skipToContent_fallback" class="main-wrapper mainWrapper_z2l0"><div class="docsWrapper_hBAB"><div class="docRoot_UBD9"><aside class="theme-doc-sidebar-container docSidebarContainer_YfHR"><div class="sidebarViewport_aRkj"><div class="sidebar_njMd"><nav aria-label="Docs sidebar" class="menu thin-scrollbar menu_SIkG"><ul class="theme-doc-sidebar-menu menu__list">
${sidebarLinks(siblings, (name) => `<li class="theme-doc-sidebar-item-link menu__list-item"><a class="menu__link" href="/docs/${name}">${name}</a></li>`)}
</ul></nav></div></div></aside><main class="docMainContainer_TBSr"><div class="container padding-top--md padding-bottom--lg"><div class="row"><div class="col docItemCol_VOVn"><div class="docItemContainer_Djhp"><article><nav class="theme-doc-breadcrumbs breadcrumbsContainer_Z_bl" aria-label="Breadcrumbs"><ul class="breadcrumbs"><li class="breadcrumbs__item"><a aria-label="Home page" class="breadcrumbs__link" href="/">Home</a></li><li class="breadcrumbs__item breadcrumbs__item--active"><span class="breadcrumbs__link">${title}</span></li></ul></nav>
<div class="tocCollapsible_ETCw theme-doc-toc-mobile tocMobile_ITEo"><button type="button" class="clean-btn tocCollapsibleButton_TO0P">On this page</button></div>
<div class="theme-doc-markdown markdown">${body}</div>
<footer class="theme-doc-footer docusaurus-mt-lg"><div class="row margin-top--sm theme-doc-footer-edit-meta-row"><div class="col"><a href="https://github.com/example/project/edit/main/docs/page.md" target="_blank" rel="noopener noreferrer" class="theme-edit-this-page">Edit this page</a></div><div class="col lastUpdated_JAkA"><span class="theme-last-updated">Last updated on <b><time>Mar 3, 2025</time></b></span></div></div></footer></article>
<nav class="pagination-nav docusaurus-mt-lg" aria-label="Docs pages"><a class="pagination-nav__link pagination-nav__link--prev" href="/docs/prev"><div class="pagination-nav__sublabel">Previous</div><div class="pagination-nav__label">Getting started</div></a><a class="pagination-nav__link pagination-nav__link--next" href="/docs/next"><div class="pagination-nav__sublabel">Next</div><div class="pagination-nav__label">Configuration</div></a></nav></div></div>
<div class="col col--3"><div class="tableOfContents_bqdL thin-scrollbar theme-doc-toc-desktop"><ul class="table-of-contents table-of-contents__left-border">
${tocLinks(toc, (h) => `<li><a href="#${h.id}" class="table-of-contents__link toc-highlight">${h.text}</a></li>`)}
</ul></div></div></div></div></main></div></div></div>
<footer class="footer footer--dark"><div class="container container-fluid"><div class="row footer__links"><div class="col footer__col"><div class="footer__title">Docs</div><ul class="footer__items clean-list"><li class="footer__item"><a class="footer__link-item" href="/docs/intro">Tutorial</a></li></ul></div><div class="col footer__col"><div class="footer__title">Community</div><ul class="footer__items clean-list"><li class="footer__item"><a href="https://discord.example.com" class="footer__link-item">Discord</a></li><li class="footer__item"><a href="https://x.example.com" class="footer__link-item">X</a></li></ul></div></div><div class="footer__bottom text--center"><div class="footer__copyright">Copyright © 2025 Project, Inc. Built with Docusaurus.</div></div></div></footer></div></body></html>`,
};

const mkdocsMaterial: Template = {
  name: 'mkdocs-material',
  heading: ({ level, inner, id }) => `<h${level} id="${id}">${inner}<a class="headerlink" href="#${id}" title="Permanent link">&para;</a></h${level}>`,
  code: (code, language) => `<div class="language-${language || 'text'} highlight"><pre><span></span><code>${code}</code></pre></div>`,
  page: ({
    title,
    body,
    toc,
    siblings,
  }) => `${head(title)}<body dir="ltr" data-md-color-scheme="default"><input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer"><label class="md-overlay" for="__drawer"></label><div data-md-component="skip"><a href="#intro" class="md-skip">Skip to content</a></div>
<header class="md-header md-header--shadow" data-md-component="header"><nav class="md-header__inner md-grid" aria-label="Header"><a href="/" title="Project" class="md-header__button md-logo" aria-label="Project">Project</a><div class="md-header__title"><div class="md-header__ellipsis"><div class="md-header__topic"><span class="md-ellipsis">Project</span></div><div class="md-header__topic" data-md-component="header-topic"><span class="md-ellipsis">${title}</span></div></div></div><div class="md-search" data-md-component="search" role="dialog"><label class="md-search__overlay" for="__search"></label><div class="md-search__inner" role="search"><form class="md-search__form" name="search"><input type="text" class="md-search__input" name="query" aria-label="Search" placeholder="Search"></form></div></div><div class="md-header__source"><a href="https://github.com/example/project" title="Go to repository" class="md-source"><div class="md-source__repository">example/project</div></a></div></nav></header>
<div class="md-container" data-md-component="container"><nav class="md-tabs" aria-label="Tabs"><div class="md-grid"><ul class="md-tabs__list"><li class="md-tabs__item"><a href="/" class="md-tabs__link">Home</a></li><li class="md-tabs__item"><a href="/guide/" class="md-tabs__link">User Guide</a></li><li class="md-tabs__item"><a href="/reference/" class="md-tabs__link">Reference</a></li></ul></div></nav>
<main class="md-main" data-md-component="main"><div class="md-main__inner md-grid"><div class="md-sidebar md-sidebar--primary" data-md-component="sidebar" data-md-type="navigation"><div class="md-sidebar__scrollwrap"><div class="md-sidebar__inner"><nav class="md-nav md-nav--primary" aria-label="Navigation"><label class="md-nav__title" for="__drawer">Project</label><ul class="md-nav__list" data-md-scrollfix>
${sidebarLinks(siblings, (name) => `<li class="md-nav__item"><a href="/${name}/" class="md-nav__link"><span class="md-ellipsis">${name}</span></a></li>`)}
</ul></nav></div></div></div><div class="md-sidebar md-sidebar--secondary" data-md-component="sidebar" data-md-type="toc"><div class="md-sidebar__scrollwrap"><div class="md-sidebar__inner"><nav class="md-nav md-nav--secondary" aria-label="Table of contents"><label class="md-nav__title" for="__toc">Table of contents</label><ul class="md-nav__list" data-md-component="toc" data-md-scrollfix>
${tocLinks(toc, (h) => `<li class="md-nav__item"><a href="#${h.id}" class="md-nav__link"><span class="md-ellipsis">${h.text}</span></a></li>`)}
</ul></nav></div></div></div><div class="md-content" data-md-component="content"><article class="md-content__inner md-typeset"><a href="https://github.com/example/project/edit/master/docs/page.md" title="Edit this page" class="md-content__button md-icon">Edit</a>
${body}
<aside class="md-source-file"><span class="md-source-file__fact"><span class="git-revision-date-localized-plugin git-revision-date-localized-plugin-date">March 3, 2025</span></span></aside></article></div></div></main>
<footer class="md-footer"><nav class="md-footer__inner md-grid" aria-label="Footer"><a href="/prev/" class="md-footer__link md-footer__link--prev" aria-label="Previous: Installation"><div class="md-footer__title"><span class="md-footer__direction">Previous</span><div class="md-ellipsis">Installation</div></div></a><a href="/next/" class="md-footer__link md-footer__link--next" aria-label="Next: Usage"><div class="md-footer__title"><span class="md-footer__direction">Next</span><div class="md-ellipsis">Usage</div></div></a></nav><div class="md-footer-meta md-typeset"><div class="md-footer-meta__inner md-grid"><div class="md-copyright">Copyright &copy; 2025 The Project authors. Made with <a href="https://squidfunk.github.io/mkdocs-material/" target="_blank" rel="noopener">Material for MkDocs</a></div></div></div></footer></div></body></html>`,
};

const sphinxFuro: Template = {
  name: 'sphinx-furo',
  heading: ({ level, inner, id }) => `<h${level}>${inner}<a class="headerlink" href="#${id}" title="Link to this heading">¶</a></h${level}>`,
  code: (code, language) => `<div class="highlight-${language || 'default'} notranslate"><div class="highlight"><pre><span></span>${code}</pre></div></div>`,
  page: ({
    title,
    body,
    toc,
    siblings,
  }) => `${head(title)}<body><input type="checkbox" class="sidebar-toggle" name="__navigation" id="__navigation"><input type="checkbox" class="sidebar-toggle" name="__toc" id="__toc"><label class="overlay sidebar-overlay" for="__navigation"></label><a class="skip-to-content muted-link" href="#furo-main-content">Skip to content</a>
<div class="page"><header class="mobile-header"><div class="header-left"><label class="nav-overlay-icon" for="__navigation"><div class="visually-hidden">Toggle site navigation sidebar</div></label></div><div class="header-center"><a href="/"><div class="brand">Project documentation</div></a></div></header>
<aside class="sidebar-drawer"><div class="sidebar-container"><div class="sidebar-sticky"><a class="sidebar-brand" href="/"><span class="sidebar-brand-text">Project 4.2 documentation</span></a><form class="sidebar-search-container" method="get" action="search.html" role="search"><input class="sidebar-search" placeholder="Search" name="q" aria-label="Search"></form><div id="searchbox"></div><div class="sidebar-scroll"><div class="sidebar-tree"><p class="caption" role="heading"><span class="caption-text">Contents</span></p><ul>
${sidebarLinks(siblings, (name, index) => `<li class="toctree-l1${index === 0 ? ' current current-page' : ''}"><a class="reference internal" href="${name}.html">${name}</a></li>`)}
</ul></div></div></div></div></aside>
<div class="main"><div class="content"><div class="article-container"><a href="#" class="back-to-top muted-link"><span>Back to top</span></a><div class="content-icon-container"><div class="edit-this-page"><a class="muted-link" href="https://github.com/example/project/edit/main/docs/page.rst" title="Edit this page"><span class="visually-hidden">Edit this page</span></a></div><div class="theme-toggle-container theme-toggle-content"><button class="theme-toggle"><div class="visually-hidden">Toggle Light / Dark / Auto color theme</div></button></div></div>
<article role="main" id="furo-main-content"><section id="page">${body}</section></article></div>
<footer><div class="related-pages"><a class="next-page" href="next.html"><div class="page-info"><div class="context"><span>Next</span></div><div class="title">Usage</div></div></a><a class="prev-page" href="prev.html"><div class="page-info"><div class="context"><span>Previous</span></div><div class="title">Installation</div></div></a></div><div class="bottom-of-page"><div class="left-details"><div class="copyright">Copyright &#169; 2025, The Project team</div>Made with <a href="https://www.sphinx-doc.org/">Sphinx</a> and <a class="muted-link" href="https://pradyunsg.me">@pradyunsg</a>'s <a href="https://github.com/pradyunsg/furo">Furo</a></div></div></footer></div>
<aside class="toc-drawer"><div class="toc-sticky toc-scroll"><div class="toc-title-container"><span class="toc-title">On this page</span></div><div class="toc-tree-container"><div class="toc-tree"><ul>
${tocLinks(toc, (h) => `<li><a class="reference internal" href="#${h.id}">${h.text}</a></li>`)}
</ul></div></div></div></aside></div></div></body></html>`,
};

const vitepress: Template = {
  name: 'vitepress',
  heading: ({ level, inner, id, text }) =>
    `<h${level} id="${id}" tabindex="-1">${inner} <a class="header-anchor" href="#${id}" aria-label="Permalink to &quot;${text}&quot;">\u200b</a></h${level}>`,
  code: (code, language) =>
    `<div class="language-${language || 'txt'} vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">${language || 'txt'}</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code>${code}</code></pre></div>`,
  page: ({
    title,
    body,
    toc,
    siblings,
  }) => `${head(title)}<body><div id="app"><div class="Layout" data-v-5d98c3a5><span tabindex="-1"></span><a href="#VPContent" class="VPSkipLink visually-hidden">Skip to content</a>
<header class="VPNav"><div class="VPNavBar has-sidebar top"><div class="wrapper"><div class="container"><div class="title"><div class="VPNavBarTitle has-sidebar"><a class="title" href="/"><span>Project</span></a></div></div><div class="content"><div class="content-body"><div class="VPNavBarSearch search"><button type="button" class="DocSearch DocSearch-Button" aria-label="Search"><span class="DocSearch-Button-Placeholder">Search</span></button></div><nav aria-labelledby="main-nav-aria-label" class="VPNavBarMenu menu"><span id="main-nav-aria-label" class="visually-hidden">Main Navigation</span><a class="VPLink link VPNavBarMenuLink active" href="/guide/"><span>Guide</span></a><a class="VPLink link VPNavBarMenuLink" href="/reference/"><span>Reference</span></a></nav></div></div></div></div></div></header>
<aside class="VPSidebar"><nav class="nav" id="VPSidebarNav" aria-labelledby="sidebar-aria-label" tabindex="-1"><span class="visually-hidden" id="sidebar-aria-label">Sidebar Navigation</span><div class="group"><section class="VPSidebarItem level-0 collapsible has-active"><div class="item" role="button" tabindex="0"><h2 class="text">Introduction</h2></div><div class="items">
${sidebarLinks(siblings, (name) => `<div class="VPSidebarItem level-1 is-link"><div class="item"><a class="VPLink link link" href="/guide/${name}"><p class="text">${name}</p></a></div></div>`)}
</div></section></div></nav></aside>
<div class="VPContent has-sidebar" id="VPContent"><div class="VPDoc has-sidebar has-aside"><div class="container"><div class="aside"><div class="aside-container"><div class="aside-content"><div class="VPDocAside"><nav aria-labelledby="doc-outline-aria-label" class="VPDocAsideOutline has-outline"><div class="content"><div class="outline-title" role="heading" aria-level="2">On this page</div><ul class="VPDocOutlineItem root">
${tocLinks(toc, (h) => `<li><a class="outline-link" href="#${h.id}">${h.text}</a></li>`)}
</ul></div></nav></div></div></div></div><div class="content"><div class="content-container"><main class="main"><div style="position:relative;" class="vp-doc _guide_page"><div>${body}</div></div></main>
<footer class="VPDocFooter"><div class="edit-info"><div class="edit-link"><a class="VPLink link vp-external-link-icon no-icon edit-link-button" href="https://github.com/example/project/edit/main/docs/page.md">Edit this page on GitHub</a></div><div class="last-updated"><p class="VPLastUpdated">Last updated: <time datetime="2025-03-03">3/3/25, 10:00 AM</time></p></div></div><nav class="prev-next" aria-labelledby="doc-footer-aria-label"><span class="visually-hidden" id="doc-footer-aria-label">Pager</span><div class="pager"><a class="VPLink link pager-link prev" href="/guide/prev"><span class="desc">Previous page</span><span class="title">Installation</span></a></div><div class="pager"><a class="VPLink link pager-link next" href="/guide/next"><span class="desc">Next page</span><span class="title">Configuration</span></a></div></nav></footer></div></div></div></div></div>
<footer class="VPFooter has-sidebar"><div class="container"><p class="message">Released under the MIT License.</p><p class="copyright">Copyright © 2019-present The Project authors</p></div></footer></div></div></body></html>`,
};

const starlight: Template = {
  name: 'starlight',
  heading: ({ level, inner, id, text }) =>
    level === 1
      ? `<h1 id="_top">${inner}</h1>`
      : `<div class="sl-heading-wrapper level-h${level}"><h${level} id="${id}">${inner}</h${level}><a class="sl-anchor-link" href="#${id}"><span aria-hidden="true" class="sl-anchor-icon"><svg width="16" height="16" viewBox="0 0 24 24"><path fill="currentcolor" d="m12.11 15.39-3.88 3.88"/></svg></span><span class="sr-only">Section titled “${text}”</span></a></div>`,
  code: (code, language) =>
    `<div class="expressive-code"><figure class="frame not-content"><figcaption class="header"></figcaption><pre data-language="${language || 'plaintext'}"><code>${code}</code></pre><div class="copy"><button title="Copy to clipboard" data-code="" ><div></div></button></div></figure></div>`,
  page: ({
    title,
    body,
    toc,
    siblings,
  }) => `${head(title)}<body><a href="#_top" class="sr-only">Skip to content</a><div class="page sl-flex"><header class="header"><div class="header sl-flex"><div class="title-wrapper sl-flex"><a href="/" class="site-title sl-flex"><span class="translate">Project</span></a></div><div class="sl-flex print:hidden"><site-search class="search"><button data-open-modal aria-label="Search"><span class="sl-hidden md:sl-block" aria-hidden="true">Search</span></button></site-search></div><div class="sl-hidden md:sl-flex print:hidden right-group"><div class="sl-flex social-icons"><a href="https://github.com/example/project" rel="me" class="sl-flex"><span class="sr-only">GitHub</span></a></div></div></div></header>
<nav class="sidebar print:hidden" aria-label="Main"><div id="starlight__sidebar" class="sidebar-pane"><div class="sidebar-content sl-flex"><ul class="top-level">
${sidebarLinks(siblings, (name) => `<li><a href="/guides/${name}/" class="large"><span>${name}</span></a></li>`)}
</ul></div></div></nav>
<div class="main-frame"><div class="lg:sl-flex"><aside class="right-sidebar-container print:hidden"><div class="right-sidebar"><div class="sl-container"><h2 id="starlight__on-this-page">On this page</h2><starlight-toc><nav aria-labelledby="starlight__on-this-page"><ul>
${tocLinks(toc, (h) => `<li><a href="#${h.id}"><span>${h.text}</span></a></li>`)}
</ul></nav></starlight-toc></div></div></aside><div class="main-pane"><main data-pagefind-body lang="en" dir="ltr"><div class="content-panel"><div class="sl-container"><div class="sl-markdown-content">${body}</div></div></div>
<div class="content-panel"><div class="sl-container"><footer class="sl-flex"><div class="meta sl-flex"><a href="https://github.com/example/project/edit/main/docs/page.md" class="sl-flex print:hidden">Edit page</a><p>Last updated: <time datetime="2025-03-03">Mar 3, 2025</time></p></div><div class="pagination-links print:hidden" dir="ltr"><a href="/guides/prev/" rel="prev"><span>Previous<br><span class="link-title">Installation</span></span></a><a href="/guides/next/" rel="next"><span>Next<br><span class="link-title">Configuration</span></span></a></div><p class="kudos">Built with <a href="https://starlight.astro.build/">Starlight</a></p></footer></div></div></main></div></div></div></div></body></html>`,
};

const nextra: Template = {
  name: 'nextra',
  heading: ({ level, inner, id }) =>
    level === 1
      ? `<h1 class="nx-mt-2 nx-text-4xl nx-font-bold nx-tracking-tight nx-text-slate-900">${inner}</h1>`
      : `<h${level} class="nx-font-semibold nx-tracking-tight nx-text-slate-900 nx-mt-10 nx-border-b nx-pb-1 nx-text-3xl" id="${id}">${inner}<a href="#${id}" class="subheading-anchor" aria-label="Permalink for this section"></a></h${level}>`,
  code: (code, language) =>
    `<div class="nextra-code-block nx-relative nx-mt-6 first:nx-mt-0"><pre class="nx-bg-primary-700/5 nx-mb-4 nx-overflow-x-auto nx-rounded-xl" data-language="${language || 'text'}" data-theme="default"><code class="nx-border-black nx-border-opacity-[0.04]" dir="ltr" data-language="${language || 'text'}" data-theme="default">${code}</code></pre><div class="nx-opacity-0 nx-transition [div:hover>&]:nx-opacity-100 nx-flex nx-gap-1 nx-absolute nx-m-[11px] nx-right-0 nx-top-0"><button class="nextra-button nx-transition-all active:nx-opacity-50 nx-bg-primary-700/5" title="Copy code" tabindex="0"><svg width="24" height="24" class="nextra-copy-icon nx-pointer-events-none nx-h-4 nx-w-4"></svg></button></div></div>`,
  page: ({
    title,
    body,
    toc,
    siblings,
  }) => `${head(title)}<body><div dir="ltr"><div class="nextra-nav-container nx-sticky nx-top-0 nx-z-20 nx-w-full nx-bg-transparent print:nx-hidden"><div class="nextra-nav-container-blur nx-pointer-events-none nx-absolute nx-z-[-1] nx-h-full nx-w-full nx-bg-white dark:nx-bg-dark nx-shadow-[0_2px_4px_rgba(0,0,0,.02),0_1px_0_rgba(0,0,0,.06)]"></div><nav class="nx-mx-auto nx-flex nx-h-[var(--nextra-navbar-height)] nx-max-w-[90rem] nx-items-center nx-justify-end nx-gap-2 nx-pl-[max(env(safe-area-inset-left),1.5rem)]"><a class="nx-flex nx-items-center hover:nx-opacity-75 ltr:nx-mr-auto" href="/"><span class="nx-font-extrabold">Project</span></a><a class="nx-text-sm contrast-more:nx-text-gray-700 nx-relative -nx-ml-2 nx-hidden nx-whitespace-nowrap nx-p-2 md:nx-inline-block" href="/docs"><span class="nx-absolute nx-inset-x-0 nx-text-center">Documentation</span></a><div class="nextra-search nx-relative md:nx-w-64 nx-hidden md:nx-inline-block mx-min-w-[200px]"><input spellcheck="false" class="nx-block nx-w-full nx-appearance-none nx-rounded-lg nx-px-3 nx-py-2" type="search" placeholder="Search documentation…" value=""></div></nav></div>
<div class="nx-mx-auto nx-flex nx-max-w-[90rem]"><div class="motion-reduce:nx-transition-none [transition:background-color_1.5s_ease] nx-bg-transparent"></div><aside class="nextra-sidebar-container nx-flex nx-flex-col md:nx-top-16 md:nx-shrink-0 motion-reduce:nx-transform-none nx-transform-gpu nx-transition-all nx-ease-in-out print:nx-hidden md:nx-w-64 md:nx-sticky md:nx-self-start max-md:[transform:translate3d(0,-100%,0)]"><div class="nx-overflow-y-auto nx-overflow-x-hidden nx-p-4 nx-grow md:nx-h-[calc(100vh-var(--nextra-navbar-height)-var(--nextra-menu-height))] nextra-scrollbar"><ul class="nx-flex nx-flex-col nx-gap-1 max-md:nx-hidden">
${sidebarLinks(siblings, (name) => `<li class="nx-flex nx-flex-col nx-gap-1"><a class="nx-flex nx-rounded nx-px-2 nx-py-1.5 nx-text-sm nx-transition-colors" href="/docs/${name}">${name}</a></li>`)}
</ul></div></aside><nav class="nextra-toc nx-order-last nx-hidden nx-w-64 nx-shrink-0 xl:nx-block print:nx-hidden" aria-label="table of contents"><div class="nextra-scrollbar nx-sticky nx-top-16 nx-overflow-y-auto nx-pr-4 nx-pt-6 nx-text-sm [hyphens:auto] nx-max-h-[calc(100vh-var(--nextra-navbar-height)-env(safe-area-inset-bottom))] ltr:-nx-mr-4 rtl:-nx-ml-4"><p class="nx-mb-4 nx-font-semibold nx-tracking-tight">On This Page</p><ul>
${tocLinks(toc, (h) => `<li class="nx-my-2 nx-scroll-my-6 nx-scroll-py-6"><a href="#${h.id}" class="nx-font-semibold nx-inline-block nx-text-gray-500">${h.text}</a></li>`)}
</ul><div class="nx-mt-8 nx-border-t nx-bg-white nx-pt-8 nx-shadow-[0_-12px_16px_white] dark:nx-bg-dark"><a href="https://github.com/example/project/issues/new" target="_blank" rel="noreferrer" class="nx-text-xs nx-font-medium nx-text-gray-500">Question? Give us feedback →</a><a class="nx-text-xs nx-font-medium nx-text-gray-500" href="https://github.com/example/project/blob/main/docs/page.mdx">Edit this page</a></div></div></nav>
<article class="nx-flex nx-min-h-[calc(100vh-var(--nextra-navbar-height))] nx-w-full nx-min-w-0 nx-justify-center nx-pb-8 nx-pr-[calc(env(safe-area-inset-right)-1.5rem)]"><main class="nx-w-full nx-min-w-0 nx-max-w-6xl nx-px-6 nx-pt-4 md:nx-px-12"><div class="nextra-breadcrumb nx-mt-1.5 nx-flex nx-items-center nx-gap-1 nx-overflow-hidden nx-text-sm nx-text-gray-500"><div class="nx-whitespace-nowrap nx-transition-colors nx-min-w-[24px] nx-overflow-hidden nx-text-ellipsis" title="Docs">Docs</div><div class="nx-whitespace-nowrap nx-font-medium nx-text-gray-700" title="${title}">${title}</div></div>${body}<div class="nx-mb-8 nx-flex nx-items-center nx-border-t nx-pt-8 dark:nx-border-neutral-800 contrast-more:nx-border-neutral-400 print:nx-hidden"><a title="Installation" class="nx-flex nx-max-w-[50%] nx-items-center nx-gap-1 nx-py-4 nx-text-base nx-font-medium" href="/docs/prev">Installation</a><a title="Configuration" class="nx-flex nx-max-w-[50%] nx-items-center nx-gap-1 nx-py-4 nx-text-base nx-font-medium ltr:nx-ml-auto" href="/docs/next">Configuration</a></div></main></article></div>
<footer class="nx-bg-gray-100 nx-pb-[env(safe-area-inset-bottom)] dark:nx-bg-neutral-900 print:nx-bg-transparent"><hr class="dark:nx-border-neutral-800"><div class="nx-mx-auto nx-flex nx-max-w-[90rem] nx-justify-center nx-py-12 nx-text-gray-600 dark:nx-text-gray-400 md:nx-justify-start nx-pl-[max(env(safe-area-inset-left),1.5rem)]">MIT 2025 © Project.</div></footer></div></body></html>`,
};

export const templates: readonly Template[] = [docusaurus, mkdocsMaterial, sphinxFuro, vitepress, starlight, nextra];
