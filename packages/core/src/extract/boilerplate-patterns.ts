/**
 * The vocabulary of page chrome and of content, as tables. Every rule that looks at a tag name, a
 * role or a class/id reads it from here, so a reader can scan (and a contributor extend) what
 * counts as navigation, banners, share widgets or article bodies without reading the algorithm.
 *
 * Class/id patterns run on `hintText` (lower-cased `class + " " + id`). A term that is also a
 * common word fragment (`ad`, `nav`, `toc`, `tags`, `meta`) is matched only as a whole
 * dash/underscore-separated word.
 */

/** Elements that never carry main-content text: removed before anything is measured. */
export const nonContentTags: ReadonlySet<string> = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'link',
  'meta',
  'head',
  'base',
  'svg',
  'canvas',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'param',
  'input',
  'select',
  'textarea',
  'button',
  'option',
  'optgroup',
  'datalist',
  'dialog',
  'map',
  'area',
  'audio',
  'video',
  'source',
  'track',
  'rt',
  'rp', // ruby readings: the base text is the text
]);

/** Whole-word helper: `word` between start/end or `-`, `_`, space. */
const word = (term: string): string => `(?:^|[\\s_-])(?:${term})(?:$|[\\s_-])`;

/**
 * Chrome whose class/id says what it is: removed wherever it is (unless it holds the content
 * anchors, see `main-content.ts`). These are never part of an article.
 */
export const chromeHintPattern = new RegExp(
  [
    // consent and cookie banners
    'cookie',
    'consent',
    'gdpr',
    'gprd',
    'onetrust',
    'cc-window',
    'cc-banner',
    'cc_banner',
    word('truste'),
    'qc-cmp',
    'cmp-container',
    'usercentrics',
    'didomi',
    'borlabs',
    // share, social, follow
    'share',
    'sharing',
    'social',
    'addthis',
    'addtoany',
    'a2a_',
    'sociable',
    'shariff',
    'follow-us',
    'followus',
    // related and recommended lists, third-party recirculation
    'related',
    'recommend',
    'more-stories',
    'more-articles',
    'also-like',
    'also-read',
    'read-next',
    'readnext',
    'outbrain',
    'taboola',
    'zergnet',
    'popular-posts',
    'trending',
    'most-read',
    'mostread',
    'most-popular',
    // comments
    'comment',
    'disqus',
    'respond',
    'replies',
    'reply-form',
    'discourse',
    // newsletter, subscribe
    'newsletter',
    'subscribe',
    'subscription',
    'signup',
    'sign-up',
    'mailchimp',
    'mc4wp',
    'optin',
    'opt-in',
    // navigation aids
    'breadcrumb',
    'pagination',
    'pager',
    'pagenav',
    'page-nav',
    'post-nav',
    'nav-links',
    'prev-next',
    'next-prev',
    'skip-link',
    'skiplink',
    'skip-to',
    'jump-link',
    'table-of-contents',
    'tableofcontents',
    'on-this-page',
    'onthispage',
    'doc-toc',
    'edit-this-page',
    'editthispage',
    'edit-page',
    'last-updated',
    'lastupdated',
    'doc-footer',
    'docs-footer',
    // ads and sponsors (the bare words `ad`, `ads` are layout names, below)
    'advert',
    'adsbygoogle',
    'ad-slot',
    'adslot',
    'ad-container',
    'ad-wrapper',
    'adwrapper',
    'ad-unit',
    'adunit',
    'ad-banner',
    'dfp-',
    'google-ad',
    'sponsor',
    'promo',
    'affiliate',
    'commercial',
    'banner-ad',
    // overlays
    'popup',
    'modal',
    // article meta that is not article text
    'author-bio',
    'authorbio',
    'about-author',
    'about-the-author',
    'author-box',
    'authorbox',
    'author-info',
    'post-author',
    'entry-author',
    'author-content',
    'author-description',
    'author-details',
    'author-card',
    'post-meta',
    'postmeta',
    'entry-meta',
    'entry-footer',
    'article-meta',
    'meta-info',
    'byline',
    'dateline',
    'post-tags',
    'tag-list',
    'taglist',
    'tagcloud',
    'tag-cloud',
    'categories',
    'cat-links',
    'tags-links',
    'print-link',
    'printfriendly',
    'screen-reader',
    'sr-only',
    'visually-hidden',
    'visuallyhidden',
    // words that must stand alone
    word('advertising|toc|share|print|rating|ratings|login|signin|search|sr'),
    // photo credits (the caption itself stays)
    'photo-credit',
    'image-credit',
    'photocredit',
    'imagecredit',
    'photographer',
    word('credit|credits'),
  ].join('|'),
);

/**
 * Layout parts that are chrome on most pages but hold the article on some (a "widget" block in a
 * page builder, a "lightbox-gallery" text block with one photo, a "paywall" flag on the article):
 * removed unless they read like article prose.
 */
export const layoutChromeHintPattern = new RegExp(
  [
    'sidebar',
    'side-bar',
    'sidenav',
    'side-nav',
    'widget',
    'lightbox',
    'overlay',
    'backdrop',
    'paywall',
    'regwall',
    // slideshows and carousels: their captions repeat and duplicate (a single figure stays)
    'gallery',
    'slideshow',
    'carousel',
    'slider',
    'swiper',
    // `ad` as a whole word is also a word of other languages' class names (`cuerpo-ad`, "body of
    // the ad..." or a site's own abbreviation): an ad slot holds no article prose, so it is a
    // layout name that spares a block reading like an article
    word('ad|ads|adv'),
  ].join('|'),
);

/**
 * Chrome by a weaker word: removed only when the same class/id names no content
 * (`contentHintPattern`), so `header-content` or `main-footer-article` survive to scoring.
 */
export const weakChromeHintPattern = new RegExp(
  [
    'header',
    'footer',
    'masthead',
    'navbar',
    'navigation',
    'menu',
    'banner',
    'extra',
    'rss',
    'shoutbox',
    'skyscraper',
    'combx',
    'community',
    'supplemental',
    'agegate',
    'legends',
    'copyright',
    'site-info',
    'siteinfo',
    'topbar',
    'top-bar',
    'toolbar',
    'utility',
    'partner',
    'teaser',
    'feedback',
    // `tools` only as a word of its own (`page-tools`): glued into a name (`setuptools`, `devtools`)
    // it names a program a page documents
    word('nav|meta|links|aside|foot|head|tabs|crumbs|tags|tag|tools'),
    // `top` and `bottom` only at the start of a class name (`top-bar`, `bottom-links`): after another
    // word they are a side of a box (`padding-bottom-2`, `margin-top`, `border-top`), not a place
    '(?:^|\\s)(?:bottom|top)(?:$|[\\s_-])',
  ].join('|'),
);

/** Names that mark content: they veto weak chrome and add to a candidate's score. */
export const contentHintPattern = /article|body|content|entry|hentry|h-entry|main|post|text|blog|story|prose|markdown|column|page|single|document/;

/** Names that mark the article body itself: ancestors of such an element are never chrome. */
export const articleBodyHintPattern =
  /article[-_]?(?:body|content|text)|entry[-_]?(?:content|body)|post[-_]?(?:body|content|text|entry)|story[-_]?(?:body|content|text)|content[-_]?body|body[-_]?(?:text|copy)|text[-_]?body|field-name-body|field--name-body|rich[-_]?text|markdown[-_]?body|theme-doc-markdown|articlebody|postbody|storybody|main[-_]?content/;

/** Class/id hints that lower a candidate's score (readability-class, extended). */
export const negativeScoreHintPattern =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|nav|menu|header|teaser|card|list|login|subscribe|newsletter|cookie|social|breadcrumb|pagination|pager|popular|trending|recommend/;

/** Class/id hints that raise a candidate's score. */
export const positiveScoreHintPattern = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|markdown|documentation/;

/** Tags that are chrome by definition (`header` and `footer` have guards, see main-content.ts). */
export const chromeTags: ReadonlySet<string> = new Set(['nav', 'aside', 'footer', 'header', 'menu']);

/** ARIA roles that are chrome by definition. */
export const chromeRoles: ReadonlySet<string> = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'menu',
  'menubar',
  'dialog',
  'alertdialog',
  'toolbar',
  'tablist',
  'alert',
]);

/** Roles and itemprops that mark the content region. */
export const contentRoles: ReadonlySet<string> = new Set(['main', 'article']);
export const contentItemprops: ReadonlySet<string> = new Set(['articlebody', 'text', 'articletext', 'reviewbody']);

/** Base scores by tag for a content candidate (readability's table). */
export const tagBaseScores: Record<string, number> = {
  div: 5,
  article: 10,
  main: 10,
  section: 2,
  pre: 3,
  td: 3,
  blockquote: 3,
  address: -3,
  ol: -3,
  ul: -3,
  dl: -3,
  dd: -3,
  dt: -3,
  li: -3,
  form: -3,
  h1: -5,
  h2: -5,
  h3: -5,
  h4: -5,
  h5: -5,
  h6: -5,
  th: -5,
};

/**
 * Whole texts of short blocks that are chrome in any layout: "Edit this page", "Last updated on",
 * share prompts, pager words, "Advertisement". Matched against a block's whole collapsed text.
 */
export const chromeTextPatterns: readonly RegExp[] = [
  /^(?:edit this page|edit on github|edit page|improve this (?:page|doc)|suggest (?:an )?edits?|report an issue)$/i,
  /^last (?:updated|modified)(?: on| at| by)?\b.{0,80}$/i,
  /^(?:share|share this|share this (?:article|post|story|page)|share on \w+|tweet|print|email|e-mail|teilen|drucken|weiterempfehlen|partager|imprimer|compartir|imprimir)[:!]?$/i,
  /^(?:advertisement|advertising|anzeige|werbung|publicité|publicidad|pubblicità|publicidade|reklama|reklame|advertentie|annons|annonse|mainos|sponsored|ad)$/i,
  /^(?:skip to (?:main )?content|skip to navigation|jump to navigation|jump to search|zum inhalt springen)$/i,
  /^(?:on this page|in this article|table of contents|contents|inhaltsverzeichnis|in this section)$/i,
  /^(?:[«‹←<]\s*)?(?:previous|next|prev|older|newer|zurück|weiter|vorheriger?|nächster?)(?: (?:post|posts|article|page|story|entry|entries|chapter|beitrag|artikel))?(?:\s*[»›→>])?(?:\s*:\s*.{0,100})?$/i,
  /^(?:leave a (?:reply|comment)|\d+ comments?|no comments(?: yet)?|comments? \(\d+\)|kommentare?|kommentieren)$/i,
  /^(?:was this (?:page|article) helpful\??|did you find this helpful\??)/i,
  /^(?:tags|tagged|tagged with|related tags|topics|filed under|posted in|categories|category|schlagwörter|schlagworte|kategorien?|themen)(?:\s*:.{0,150})?$/i,
  // "read also" lines that link a neighbouring story
  /^[[(]?(?:lea (?:también|más)|lea|vea también|read (?:also|more|next)|see also|related|lesen sie (?:auch|mehr)|auch interessant|mehr zum thema|siehe auch|lire aussi|à lire aussi|leia também|leggi anche|czytaj (?:też|także|więcej))(?:\s*[:：»›>|–—-].{0,160})?[\])]?$/i,
  // reading time
  /^(?:reading time|read time|lesezeit|lesedauer|tempo de leitura|tiempo de lectura|temps de lecture|tempo di lettura)\b.{0,30}$/i,
  /^(?:\d+|one|two|three|four|five)\s*(?:-|\s)?(?:min|mins|minutes?|minuten|minutos)\.?\s*(?:read|lesezeit|de lectura|de leitura|di lettura)$/i,
  // photo credits
  /^\(?(?:foto|fotos|bild|bilder|photo|photos|image|images|picture|quelle|source|credit|credits|copyright|©)\s*(?::|©|by\b)[^.!?]{0,100}\)?$/i,
  /^©.{0,100}$/,
  // comment prompts
  /^(?:kommentare? (?:schreiben|verfassen|anzeigen)|keine kommentare|write a comment|add (?:a )?comment|post (?:a )?comment|show comments|view comments|kommentar abgeben)\b.{0,10}(?:\s*\([^()]{0,80}\))?$/i,
];

/**
 * Words a block may consist of, besides numbers and punctuation, and still be only a date line
 * ("Updated 11:21 pm CST, Tuesday, November 19, 2019", "23.10.2018", "7. oktober 2020").
 */
export const dateLineWords: ReadonlySet<string> = new Set(
  [
    // English
    'jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october',
    'nov november dec december mon monday tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat',
    'saturday sun sunday am pm a.m p.m on at updated published posted first last modified date st nd rd th',
    'est edt cst cdt mst mdt pst pdt gmt utc bst cet cest ist amt msk jst kst hkt sgt aest aedt wib',
    // German
    'januar jänner februar märz mai juni juli oktober dezember montag dienstag mittwoch donnerstag freitag',
    'samstag sonntag uhr um am veröffentlicht aktualisiert stand erstellt datum zuletzt',
    // French, Spanish, Italian, Portuguese, Dutch, Polish (months and the joining words)
    'janvier février mars avril juin juillet août septembre octobre novembre décembre le publié mis à jour',
    'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre de del el publicado',
    'gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre pubblicato il alle ore ultima modifica',
    'aggiornato',
    'janeiro fevereiro março maio junho julho setembro outubro novembro dezembro às',
    'januari februari maart mei augustus oktober gepubliceerd',
    'stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Headings that open a chrome section (the heading and what follows it up to the next heading of
 * the same or a higher level are dropped): related lists, comments, newsletter boxes, author bios.
 */
export const chromeSectionHeadingPattern =
  /^(?:related(?: posts| articles| stories| content| reading| links)?|you (?:may|might) also like|more (?:stories|articles|from|on this)|read (?:more|next|also)|recommended(?: for you| reading)?|popular(?: posts| stories)?|trending|most (?:read|popular|viewed)|(?:\d+ )?comments?(?: \(\d+\))?|leave a (?:reply|comment)|join the (?:discussion|conversation)|share this(?: article| post| story)?|about the author|subscribe(?: to .{0,40})?|sign up(?: for .{0,40})?|newsletter|ähnliche (?:artikel|beiträge)|das könnte (?:sie|dich) auch interessieren|weitere artikel|kommentare?|verwandte (?:artikel|beiträge|themen|themenbereiche)|mehr lesen|weiterlesen|lesen sie auch|auch interessant|meistgelesene?(?: artikel)?|noticias relacionadas|te puede interesar|articles similaires|à lire aussi)[:.!]?$/i;
