import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ConfirmButton } from '../../ui/confirm-button';
import { CopyField } from '../../ui/copy-field';
import { FormError } from '../../ui/form-error';
import { Loading } from '../../ui/loading';
import type { DeployKey, GitWorkspace } from './git-types';
import { gitKeys } from '../../api/query-keys';

/**
 * For SSH remotes: the workspace's deploy key to add to the repository (with write access),
 * and the host key Folio trusted on first contact, which can be forgotten when the host
 * replaces its key.
 */
export function DeployKeyPanel({ workspace, onChanged }: { workspace: GitWorkspace; onChanged: () => void }) {
  const base = `/api/v1/workspaces/${workspace.id}`;
  const key = useQuery({
    queryKey: gitKeys.deployKey(workspace.id),
    queryFn: () => api<DeployKey>('GET', `${base}/deploy-key`),
    staleTime: Infinity,
  });
  const forget = useMutation({
    mutationFn: () => api('DELETE', `${base}/git-host-key`),
    onSuccess: onChanged,
  });
  const hostKey = workspace.git_host_key;
  return (
    <section className="account-section" aria-labelledby="deploy-key-heading">
      <h2 id="deploy-key-heading">SSH deploy key</h2>
      <p className="hint">
        For an SSH remote (git@host:owner/repo.git), add this public key to the repository as a deploy key
        with write access.
      </p>
      {key.isPending && <Loading label="Loading the deploy key…" />}
      <FormError error={key.error} />
      {key.data && (
        <>
          <CopyField label="Public key" value={key.data.public_key} />
          <p className="hint fingerprint">Fingerprint {key.data.fingerprint}</p>
        </>
      )}
      {hostKey && (
        <div className="host-key">
          <p>
            Trusted host key of <strong>{hostKey.host}</strong>: {hostKey.type} {hostKey.fingerprint}
          </p>
          <ConfirmButton
            label="Forget host key…"
            confirmLabel="Forget the host key"
            small
            busy={forget.isPending}
            onConfirm={() => forget.mutate()}
          />
          <FormError error={forget.error} />
        </div>
      )}
    </section>
  );
}
