import { useEffect } from 'react';

export interface PageMeta {
  title: string;
  description: string;
  // Path of the page, used for og:url and the canonical link.
  path: string;
}

const siteName = 'Spark';
const shareImagePath = '/og-image.png';

function setMeta(attribute: 'name' | 'property', key: string, content: string): void {
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
export function usePageMeta({ title, description, path }: PageMeta): void {
  useEffect(() => {
    // The landing page's title already leads with the brand; others get it appended.
    const fullTitle = title.startsWith(siteName) ? title : `${title} | ${siteName}`;
    const url = new URL(path, window.location.origin).href;
    const image = new URL(shareImagePath, window.location.origin).href;
    document.title = fullTitle;
    setMeta('name', 'description', description);
    setMeta('property', 'og:type', 'website');
    setMeta('property', 'og:site_name', siteName);
    setMeta('property', 'og:title', fullTitle);
    setMeta('property', 'og:description', description);
    setMeta('property', 'og:url', url);
    setMeta('property', 'og:image', image);
    setMeta('name', 'twitter:card', 'summary_large_image');
    setMeta('name', 'twitter:title', fullTitle);
    setMeta('name', 'twitter:description', description);
    setMeta('name', 'twitter:image', image);
    setCanonical(url);
  }, [title, description, path]);
}
