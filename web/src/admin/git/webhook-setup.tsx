import { CopyField } from '../../ui/copy-field';
import type { GitWorkspace } from './git-types';

/** Where each git host keeps its webhook settings, and what to choose there. */
const HOSTS: readonly { name: string; steps: readonly string[] }[] = [
  {
    name: 'GitHub',
    steps: [
      'In the repository, open Settings → Webhooks → Add webhook.',
      'Payload URL: the webhook URL above. Content type: application/json.',
      'Secret: the webhook secret above.',
      'Which events: "Just the push event". Save with "Add webhook".',
    ],
  },
  {
    name: 'GitLab',
    steps: [
      'In the project, open Settings → Webhooks → Add new webhook.',
      'URL: the webhook URL above.',
      'Secret token: the webhook secret above.',
      'Trigger: "Push events" (all branches, or the branch Folio syncs). Save.',
    ],
  },
  {
    name: 'Gitea or Forgejo',
    steps: [
      'In the repository, open Settings → Webhooks → Add webhook → Gitea (or Forgejo).',
      'Target URL: the webhook URL above. HTTP method POST, content type application/json.',
      'Secret: the webhook secret above.',
      'Trigger on: "Push events". Save with "Add webhook".',
    ],
  },
];

/**
 * The push webhook: its URL and secret to copy, and how to set it up on each host. With
 * it, a push to the remote syncs at once instead of at the next poll.
 */
export function WebhookSetup({ workspace }: { workspace: GitWorkspace }) {
  return (
    <section className="account-section" aria-labelledby="webhook-heading">
      <h2 id="webhook-heading">Push webhook</h2>
      <p className="hint">
        Tell the git host to call Folio on every push to {workspace.git_branch}, so pages update at once.
      </p>
      <CopyField label="Webhook URL" value={workspace.webhook_url} />
      <CopyField label="Webhook secret" value={workspace.webhook_secret} />
      {HOSTS.map((host) => (
        <details key={host.name} className="host-steps">
          <summary>On {host.name}</summary>
          <ol>
            {host.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </details>
      ))}
    </section>
  );
}
