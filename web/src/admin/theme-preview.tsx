import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import type { Workspace } from '../api/types';
import { SiteFrame } from '../ui/site-frame';
import { workspaceKeys } from '../api/query-keys';

/** A short page with what themes style differently: headings, a link, a list, code, a quote, a table. */
const SAMPLE = `# Getting started

Folio publishes your **Markdown** as a documentation site. See the [guides](guides.md) for more.

## Install

1. Install Node.js 20.
2. Run the two commands:

\`\`\`bash
npm ci && npm start
\`\`\`

> Every page is a file in git.

| Setting | Default |
| --- | --- |
| \`PORT\` | 3000 |
`;

/** What `POST …/preview` answers (the parts shown here). */
interface Rendered {
  html: string;
  stylesheet: string;
}

/**
 * A sample page rendered by the server in `theme`, so a theme is chosen by looking at it
 * rather than at its name.
 */
export function ThemePreview({ workspace, theme }: { workspace: Workspace; theme: string }) {
  const rendered = useQuery({
    queryKey: workspaceKeys.themePreview(workspace.slug, theme),
    queryFn: () =>
      api<Rendered>('POST', `/api/v1/content/${encodeURIComponent(workspace.slug)}/preview`, {
        path: 'theme-sample.md',
        content: SAMPLE,
        theme,
      }),
    staleTime: Infinity,
  });
  if (!rendered.data) return <div className="theme-preview is-loading" aria-hidden="true" />;
  return (
    <SiteFrame
      className="theme-preview"
      title={`Sample page in the ${theme} theme`}
      html={rendered.data.html}
      stylesheet={rendered.data.stylesheet}
    />
  );
}
