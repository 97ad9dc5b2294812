/**
 * The one page of every starter workspace (`index.md`): a short, practical
 * tour that a new user can edit or delete.
 */
export const WELCOME_FRONTMATTER = {
  title: 'Welcome to Folio',
  description: 'Start here: how pages, links and publishing work in this workspace.',
  tags: ['getting-started'],
  status: 'published',
} as const;

export const WELCOME_BODY = `# Welcome to Folio

This workspace is yours. Every page is a Markdown file with a little YAML
frontmatter at the top, stored in a git repository you can sync with GitHub,
GitLab or any other git host.

## Write

- Create a page from the sidebar, or with the API:
  \`POST /api/v1/content/<workspace>/guides/setup\` and a body such as
  \`{ "title": "Setup", "body": "# Setup" }\`.
- Save changes with \`PUT\` and the \`content_hash\` you last read as
  \`lastKnownHash\`. If someone saved in between, Folio answers 409 instead of
  overwriting their work.
- Give a page a \`description\` and \`tags\` in its frontmatter; set
  \`status: published\` when it is ready for readers.

## Link

Link pages with wikilinks such as \`[[guides/setup]]\` or
\`[[guides/setup#install|the install steps]]\`, or with ordinary Markdown links.
When you move or rename a page, Folio rewrites the links that point to it.

## Organise

Folders in the sidebar are folders on disk. Drag pages to reorder them; the
order is kept in each page's frontmatter, so it travels with your files.

## Publish and share

Published pages form this workspace's documentation site. Invite teammates
as editors, commenters or viewers, and connect a git remote to keep the
files in sync with your repository.

Edit or delete this page whenever you like.
`;
