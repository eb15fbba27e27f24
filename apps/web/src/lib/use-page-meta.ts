import { createContext, useContext, useEffect } from 'react';

export interface PageMeta {
  title: string;
  description: string;
  // Path of the page, used for og:url and the canonical link.
  path: string;
}

export interface MetaTag {
  attribute: 'name' | 'property';
  key: string;
  content: string;
}

export interface PageHead {
  title: string;
  tags: MetaTag[];
  canonical: string;
}

const siteName = 'Spark';
const shareImagePath = '/og-image.png';

/** The document head of one page: title, description, Open Graph and Twitter tags, canonical link. */
export function pageHeadOf({ title, description, path }: PageMeta, origin: string): PageHead {
  // The landing page's title already leads with the brand; others get it appended.
  const fullTitle = title.startsWith(siteName) ? title : `${title} | ${siteName}`;
  const url = new URL(path, origin).href;
  const image = new URL(shareImagePath, origin).href;
  const tag = (attribute: MetaTag['attribute'], key: string, content: string): MetaTag => ({ attribute, key, content });
  return {
    title: fullTitle,
    canonical: url,
    tags: [
      tag('name', 'description', description),
      tag('property', 'og:type', 'website'),
      tag('property', 'og:site_name', siteName),
      tag('property', 'og:title', fullTitle),
      tag('property', 'og:description', description),
      tag('property', 'og:url', url),
      tag('property', 'og:image', image),
      tag('name', 'twitter:card', 'summary_large_image'),
      tag('name', 'twitter:title', fullTitle),
      tag('name', 'twitter:description', description),
      tag('name', 'twitter:image', image),
    ],
  };
}

/**
 * Set only while pages are prerendered at build time (entry-server.tsx): effects do not run there,
 * so the page hands its meta to the prerenderer during render instead.
 */
export const PageMetaCollector = createContext<((meta: PageMeta) => void) | null>(null);

function setMeta({ attribute, key, content }: MetaTag): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.append(element);
  }
  element.content = content;
}

function setCanonical(href: string): void {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.append(link);
  }
  link.href = href;
}

/** Sets the document title plus description, Open Graph and Twitter tags for one route. */
export function usePageMeta(meta: PageMeta): void {
  useContext(PageMetaCollector)?.(meta);
  const { title, description, path } = meta;
  useEffect(() => {
    const head = pageHeadOf({ title, description, path }, window.location.origin);
    document.title = head.title;
    head.tags.forEach(setMeta);
    setCanonical(head.canonical);
  }, [title, description, path]);
}
