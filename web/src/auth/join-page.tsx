import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { JoinedWorkspace } from '../../../src/contract/members';
import { api } from '../api/client';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { AuthLayout } from './auth-layout';
import { workspaceKeys } from '../api/query-keys';

const slugOf = (joined: JoinedWorkspace | undefined) => joined?.workspace.slug ?? null;

/** `/invite/<token>` and `/join/<token>`: joins the workspace, then opens it. */
export function JoinPage({ kind }: { kind: 'invitation' | 'share-link' }) {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const join = useMutation({
    mutationFn: () =>
      kind === 'invitation'
        ? api<JoinedWorkspace>('POST', '/api/auth/invitations/accept', { token })
        : api<JoinedWorkspace>('POST', `/api/v1/share-links/${encodeURIComponent(token)}/use`),
    onSuccess: async (joined) => {
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
      const slug = slugOf(joined);
      navigate(slug ? `/w/${slug}` : '/', { replace: true });
    },
  });
  const { mutate } = join;
  const started = useRef(false);
  useEffect(() => {
    // Once per visit: a token may be single-use, and development mode runs effects twice.
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);
  if (!join.isError) return <Loading label="Joining the workspace…" />;
  return (
    <AuthLayout title="This link did not work">
      <FormError error={join.error} />
      <p className="auth-links">
        <Link to="/">Go to your workspaces</Link>
      </p>
    </AuthLayout>
  );
}
