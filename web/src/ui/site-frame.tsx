import { useEffect, useRef } from 'react';

const escapeAttr = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The frame's document: the site's theme stylesheet and an empty article. The theme styles a
 * whole document (`:root`, `body`), so it lives in a frame of its own instead of the app. The
 * frame is sandboxed without scripts; it inherits the app's CSP, which lets it load the
 * same-origin stylesheet and images. Links open in a new tab.
 */
const frameShell = (stylesheet: string) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><base target="_blank">' +
  `<link rel="stylesheet" href="${escapeAttr(stylesheet)}"></head>` +
  '<body><div class="site-body"><main class="page"><article class="article"></article></main></div></body></html>';

interface SiteFrameProps {
  /** The article's HTML as the server rendered and sanitised it for the site. */
  html: string;
  /** The theme's stylesheet on the published site. */
  stylesheet: string;
  title: string;
  className?: string;
}

/** A rendered page shown as the published site shows it, in a frame that runs no scripts. */
export function SiteFrame({ html, stylesheet, title, className }: SiteFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const fill = () => {
    const article = frame.current?.contentDocument?.querySelector('article');
    if (article) article.innerHTML = html;
  };
  useEffect(fill, [html]);
  return (
    <iframe
      ref={frame}
      className={className}
      title={title}
      sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      srcDoc={frameShell(stylesheet)}
      onLoad={fill}
    />
  );
}
