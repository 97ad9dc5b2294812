import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, ApiError, NetworkError } from '../api/client';
import type { Workspace } from '../api/types';
import type { ImportJob } from '../../../src/contract/imports';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { adminKeys } from '../api/query-keys';

const FORMATS = [
  ['', 'Find out from the files'],
  ['notion', 'Notion (Markdown & CSV export)'],
  ['confluence', 'Confluence (HTML space export)'],
  ['obsidian', 'Obsidian vault'],
  ['mkdocs', 'MkDocs'],
  ['docusaurus', 'Docusaurus'],
  ['gitbook', 'GitBook'],
] as const;

/**
 * POST …/imports with the ZIP as the body; the upload's own progress comes from XHR
 * (fetch reports none), then the job is polled until it has its report.
 */
function sendZip(url: string, file: File, onProgress: (fraction: number) => void): Promise<ImportJob> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', 'application/zip');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new NetworkError('The server cannot be reached'));
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        // not JSON: reported by status below
      }
      if (xhr.status === 202) resolve(body as unknown as ImportJob);
      else {
        const message = typeof body.message === 'string' ? body.message : `Import failed (${xhr.status})`;
        reject(new ApiError(xhr.status, String(body.error ?? 'INTERNAL_ERROR'), message, body));
      }
    };
    xhr.send(file);
  });
}

/** Workspace settings → Import: a Notion or Confluence export (a ZIP) into pages, with a report. */
export function ImportSection({ workspace }: { workspace: Workspace }) {
  const fromId = useId();
  const fileId = useId();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState<number | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const base = `/api/v1/workspaces/${workspace.id}/imports`;
  const job = useQuery({
    queryKey: adminKeys.importJob(workspace.id, jobId),
    enabled: jobId !== null,
    queryFn: () => api<ImportJob>('GET', `${base}/${jobId}`),
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === 'done' || q.state.data.status === 'failed') ? false : 500,
  });
  const running = uploading !== null || job.data?.status === 'importing' || job.data?.status === 'reading';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get('file');
    if (!(file instanceof File) || file.size === 0) {
      setError(new ApiError(400, 'VALIDATION_ERROR', 'Choose the export’s ZIP file first'));
      return;
    }
    const query = new URLSearchParams();
    if (form.get('from')) query.set('from', String(form.get('from')));
    if (String(form.get('into') ?? '').trim()) query.set('into', String(form.get('into')).trim());
    if (form.get('publish') === 'on') query.set('publish', 'true');
    setError(null);
    setJobId(null);
    setUploading(0);
    try {
      const started = await sendZip(`${base}?${query}`, file, setUploading);
      queryClient.setQueryData(adminKeys.importJob(workspace.id, started.id), started);
      setJobId(started.id);
    } catch (e) {
      setError(e);
    } finally {
      setUploading(null);
    }
  };

  const data = job.data;
  const progress =
    uploading !== null
      ? { label: 'Uploading the export', value: uploading, max: 1 }
      : data && data.status !== 'done' && data.status !== 'failed'
        ? { label: 'Importing pages', value: data.progress.done, max: Math.max(data.progress.total, 1) }
        : null;
  return (
    <section className="account-section" aria-labelledby="import-heading">
      <h2 id="import-heading">Bring in an export</h2>
      <p>
        Bring in a Notion “Markdown &amp; CSV” export or a Confluence HTML space export as a ZIP. The pages
        arrive as one commit under your name, so reverting that commit in Git undoes the import. Repositories
        of MkDocs, Docusaurus, GitBook or an Obsidian vault are best connected under Git: Folio reads them in
        place.
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor={fileId}>Export (ZIP)</label>
          <input id={fileId} type="file" name="file" accept=".zip,application/zip" required />
        </div>
        <div className="field">
          <label htmlFor={fromId}>Exported from</label>
          <select id={fromId} name="from" defaultValue="">
            {FORMATS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="Into folder"
          name="into"
          placeholder="e.g. wiki"
          hint="Leave empty to import at the top."
        />
        <label className="checkbox">
          <input type="checkbox" name="publish" />
          Publish the imported pages
        </label>
        <FormError
          error={
            error ??
            (data?.status === 'failed'
              ? new ApiError(500, data.error?.error ?? '', data.error?.message ?? 'The import failed')
              : null)
          }
        />
        {progress && (
          <p className="hint">
            <label>
              {progress.label}{' '}
              <progress value={progress.value} max={progress.max}>
                {Math.round((progress.value / progress.max) * 100)}%
              </progress>
            </label>
          </p>
        )}
        <div className="dialog-actions">
          <button type="submit" className="button primary" disabled={running}>
            {running ? 'Importing…' : 'Import'}
          </button>
        </div>
      </form>
      {data?.status === 'done' && data.report && <ImportReportView report={data.report} />}
    </section>
  );
}

function ImportReportView({ report }: { report: NonNullable<ImportJob['report']> }) {
  const pages = report.converted.filter((c) => c.path.endsWith('.md')).length;
  return (
    <div role="status" aria-label="Import report">
      <p>
        Imported {pages} page{pages === 1 ? '' : 's'} and {report.converted.length - pages} upload
        {report.converted.length - pages === 1 ? '' : 's'} from {report.from}
        {report.commit ? ` in commit ${report.commit.slice(0, 12)}` : ''}.
      </p>
      <ReportList
        title={`Converted (${report.converted.length})`}
        items={report.converted.map((c) => `${c.source} → ${c.path}`)}
      />
      <ReportList
        title={`Kept as is (${report.kept.length})`}
        items={report.kept.map((k) => `${k.source}: ${k.note}`)}
      />
      <ReportList
        title={`Dropped (${report.dropped.length})`}
        items={report.dropped.map((d) => `${d.source}: ${d.reason}`)}
      />
    </div>
  );
}

function ReportList({ title, items }: { title: string; items: string[] }) {
  return (
    <details open={items.length > 0 && items.length <= 20}>
      <summary>{title}</summary>
      {items.length ? (
        <ul className="import-report">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      ) : (
        <p className="hint">None.</p>
      )}
    </details>
  );
}
