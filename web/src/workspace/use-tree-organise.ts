import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, contentUrl } from '../api/client';
import type { Page, TreeNode } from '../../../src/contract/pages';
import { errorText } from '../ui/form-error';
import { applyMove, applyReorder, childrenOf, parentOf, type ReorderRequest } from './tree-order';
import { pageKeys, treeKeys } from '../api/query-keys';

/** What the tree says after an organising step: read out by its live region, errors shown too. */
export interface OrganiseStatus {
  message: string;
  error: boolean;
}

/** Reordering and moving pages from the tree, as the tree calls them. */
export interface TreeOrganise {
  reorder: (moved: string, request: ReorderRequest) => void;
  move: (from: string, to: string) => void;
  status: OrganiseStatus | null;
}

const titleIn = (tree: readonly TreeNode[], path: string): string =>
  childrenOf(tree, parentOf(path)).find((n) => n.path === path)?.title ?? path;

/** "3 of 5 in guides": where `path` now sits, for the announcement. */
function placeOf(tree: readonly TreeNode[], path: string): string {
  const siblings = childrenOf(tree, parentOf(path));
  const at = siblings.findIndex((n) => n.path === path) + 1;
  return `${at} of ${siblings.length} in ${parentOf(path) || 'the top level'}`;
}

/**
 * Reorder and move with an optimistic tree: the cached tree changes at once, the request
 * goes out, and the tree is fetched again either way. On an error the tree before the step
 * is put back and the server's message shown. `onMoved` follows a page that moved.
 */
export function useTreeOrganise(slug: string, onMoved: (from: string, to: string) => void): TreeOrganise {
  const queryClient = useQueryClient();
  const key = treeKeys.all(slug);
  const [status, setStatus] = useState<OrganiseStatus | null>(null);

  // Swaps in the optimistic tree and answers how to undo it.
  const optimistic = async (change: (tree: readonly TreeNode[]) => TreeNode[]) => {
    await queryClient.cancelQueries({ queryKey: key });
    const before = queryClient.getQueryData<TreeNode[]>(key) ?? [];
    const after = change(before);
    queryClient.setQueryData(key, after);
    return { before, after };
  };
  const failed = (error: unknown, context: { before: TreeNode[] } | undefined) => {
    if (context) queryClient.setQueryData(key, context.before);
    setStatus({ message: errorText(error), error: true });
  };
  const settled = () => queryClient.invalidateQueries({ queryKey: key });

  const reorder = useMutation({
    mutationFn: ({ request }: { moved: string; request: ReorderRequest }) =>
      api<void>('POST', `/api/v1/content/${encodeURIComponent(slug)}/reorder`, request),
    onMutate: ({ moved, request }) => {
      setStatus(null);
      return optimistic((tree) => applyReorder(tree, request)).then((c) => ({ ...c, moved }));
    },
    onSuccess: (_, { moved }, context) =>
      setStatus({
        message: `${titleIn(context.after, moved)} moved to ${placeOf(context.after, moved)}.`,
        error: false,
      }),
    onError: (error, _, context) => failed(error, context),
    onSettled: settled,
  });

  const move = useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) =>
      api<Page>('PATCH', contentUrl(slug, from), { new_path: to }),
    onMutate: ({ from, to }) => {
      setStatus(null);
      return optimistic((tree) => applyMove(tree, from, to));
    },
    onSuccess: (page, { from }) => {
      queryClient.removeQueries({ queryKey: pageKeys.byPath(slug, from) });
      setStatus({
        message: `${page.title} moved to ${parentOf(page.path) || 'the top level'}.`,
        error: false,
      });
      onMoved(from, page.path);
    },
    onError: (error, _, context) => failed(error, context),
    onSettled: settled,
  });

  return {
    reorder: (moved, request) => reorder.mutate({ moved, request }),
    move: (from, to) => move.mutate({ from, to }),
    status,
  };
}
