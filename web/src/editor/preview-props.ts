/** What the preview needs of the open page: its workspace, path and the header's fields. */
export interface PreviewProps {
  slug: string;
  path: string;
  title: string;
  description: string;
}
