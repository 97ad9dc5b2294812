/**
 * Small repositories in the formats of the docs tools Folio reads in place, written for
 * these tests after the tools' documentation: an Obsidian vault (attachments folder,
 * embeds, callouts, block ids), an MkDocs Material site (`mkdocs.yml`, `docs/`,
 * admonitions, content tabs, icons, arithmatex math) and a Docusaurus site (`docs/`,
 * `static/img/`, MDX imports, `<Tabs>`, components, admonitions). `status: published` is
 * Folio's own frontmatter; the tools ignore unknown keys.
 */
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=',
  'base64',
);
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const page = (title: string, body: string) => `---\ntitle: ${title}\nstatus: published\n---\n\n${body}`;

/** An Obsidian vault: notes in folders, images in `Attachments/` and beside a note. */
export const VAULT: Record<string, string | Buffer> = {
  'Home.md': page(
    'Home',
    `Welcome to the vault. See [[Concepts/Hypertext]] and the quote [[Concepts/Hypertext#^memex|about the memex]].

![[Engelbart.jpg]]

![[diagram.png|300]]

![[Hypertext]]

![[Hypertext#History]]

![[Hypertext#^memex]]

> [!tip]- Folded tip
> Hidden until opened.

> [!faq]+ Open question
> Shown at first.

> [!warning]
> Plain warning.

Euler: $e^{i\\pi} + 1 = 0$ :smile:
`,
  ),
  'Concepts/Hypertext.md': page(
    'Hypertext',
    `Hypertext links documents.

## History

Vannevar Bush imagined the memex. ^memex

![[diagram.png]]

## Later

Engelbart demonstrated it. ![[Loop]]
`,
  ),
  'Concepts/Loop.md': page('Loop', `Loop embeds itself:\n\n![[Loop]]\n\nand the Home note:\n\n![[Home]]\n`),
  'Attachments/Engelbart.jpg': JPEG,
  'Attachments/diagram.png': PNG,
  // The same name deeper in another folder: Home (at the root) takes the shorter path,
  // the Concepts note takes the one in its own folder's subfolder.
  'Concepts/Figures/diagram.png': PNG,
  'Private/secret.png': PNG,
  '.obsidian/app.json': '{}',
};

/** An MkDocs Material site with `docs_dir: docs`. */
export const MKDOCS: Record<string, string | Buffer> = {
  'mkdocs.yml':
    'site_name: Widget\ndocs_dir: docs\ntheme:\n  name: material\nnav:\n  - Home: index.md\n  - Setup: setup/install.md\n',
  'docs/index.md': page(
    'Widget',
    `# Widget

!!! note "Before you start"
    Read the **setup** guide.

    It has two steps.

??? tip
    Collapsed by default.

???+ warning "Open by default"
    Shown expanded.

!!! danger ""
    No title bar.

Icons :material-check: and :octicons-star-16: and emoji :rocket:.

$$
E = mc^2
$$
`,
  ),
  'docs/setup/install.md': page(
    'Install',
    `# Install

=== "pip"

    \`\`\`bash
    pip install widget
    \`\`\`

=== "conda"

    Run \`conda install widget\`.

![Screenshot](../img/screen.png)

[Download the sheet](../files/sheet.pdf)
`,
  ),
  // Tab labels are Markdown in MkDocs Material: an icon and inline code, as its docs write them.
  'docs/setup/colors.md': page(
    'Colors',
    `# Colors

=== ":octicons-file-code-16: \`docs/extra.css\`"

    Set the colors.

=== ":octicons-file-code-16: \`mkdocs.yml\`"

    Load the stylesheet.
`,
  ),
  'docs/img/screen.png': PNG,
  'docs/files/sheet.pdf': '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n',
};

/** A Docusaurus site: docs in `docs/`, images in `static/img/` served at `/img/`. */
export const DOCUSAURUS: Record<string, string | Buffer> = {
  'docusaurus.config.js':
    "module.exports = { presets: [['classic', { docs: { sidebarPath: './sidebars.js' } }]] };\n",
  'docs/intro.md': page(
    'Intro',
    `import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
export const Highlight = ({children}) => <span>{children}</span>;

# Intro

<Tabs>
  <TabItem value="npm" label="npm" default>

    Install with **npm**.

  </TabItem>
  <TabItem value="yarn" label="Yarn">
    Install with yarn.
  </TabItem>
</Tabs>

<Admonition type="info" title="Heads up">
  Component admonition.
</Admonition>

<Highlight color="#25c2a0">
  Highlighted words stay.
</Highlight>

:::tip[Docusaurus 3 title]
Bracketed title.
:::

:::note Old style
Space title.
:::

![Logo](/img/logo.png)
`,
  ),
  // Linked images (a video's thumbnail), from `static/` and beside the page.
  'docs/talks.md': page(
    'Talks',
    `# Talks

[![A talk](/img/cover.png)](https://video.example.com/watch?v=1)

[![Slides](./assets/slides.png "Slides")](https://slides.example.com/deck)
`,
  ),
  'docs/assets/slides.png': PNG,
  'static/img/logo.png': PNG,
  'static/img/cover.png': PNG,
};
