import type { Workspace } from '../../api/types';
import { FormError } from '../../ui/form-error';
import { Loading } from '../../ui/loading';
import { ConflictsPanel } from './conflicts-panel';
import { CredentialsForm } from './credentials-form';
import { DeployKeyPanel } from './deploy-key';
import { RemoteForm } from './remote-form';
import { SyncPanel } from './sync-panel';
import { useGitWorkspace } from './use-git-workspace';
import { WebhookSetup } from './webhook-setup';

/**
 * Git (…/git): the remote and how Folio reaches it, the push webhook, sync as it happens,
 * and the conflicts it found.
 */
export function GitSection({ workspace }: { workspace: Workspace }) {
  const { url, details, conflicts, refresh } = useGitWorkspace(workspace);
  if (details.isPending) return <Loading label="Loading the git settings…" />;
  if (details.isError) return <FormError error={details.error} />;
  const git = details.data;
  const onChange = () => void refresh();
  return (
    <>
      <SyncPanel workspace={git} onSynced={onChange} />
      <ConflictsPanel base={url} conflicts={conflicts.data ?? []} onResolved={onChange} />
      <RemoteForm workspace={git} onSaved={onChange} />
      <CredentialsForm workspace={git} onSaved={onChange} />
      <DeployKeyPanel workspace={git} onChanged={onChange} />
      <WebhookSetup workspace={git} />
    </>
  );
}
