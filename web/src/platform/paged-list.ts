import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { query, type Page } from './platform-api';

/**
 * A cursor-paginated admin list: the pages loaded so far, flattened, and
 * `more()` while the server says more remain.
 */
export function usePagedList<T>(key: readonly unknown[], url: string, params: Record<string, string> = {}) {
  const list = useInfiniteQuery({
    queryKey: [...key, params],
    queryFn: ({ pageParam }) =>
      api<Page<T>>('GET', `${url}${query({ ...params, limit: 20, cursor: pageParam })}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  return {
    items: list.data?.pages.flatMap((p) => p.data) ?? [],
    isPending: list.isPending,
    error: list.error,
    hasMore: list.hasNextPage,
    loadingMore: list.isFetchingNextPage,
    more: () => void list.fetchNextPage(),
  };
}
