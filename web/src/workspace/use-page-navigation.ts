import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import type { PageNavigation } from './nav-model';

/**
 * The workspace's pages in its docs tool's reading order. Keyed under the tree's key, so
 * the events that refresh the tree refresh it too.
 */
export function usePageNavigation(slug: string) {
  return useQuery({
    queryKey: ['tree', slug, 'navigation'],
    staleTime: 5_000,
    queryFn: () => api<PageNavigation>('GET', `/api/v1/content/${encodeURIComponent(slug)}/navigation`),
  });
}
