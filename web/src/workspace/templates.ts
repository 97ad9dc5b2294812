import type { z } from 'zod';
import type { PageTemplate, templateSummary } from '../../../src/contract/pages';
import { api } from '../api/client';

/** A template as listed, and one template in full. */
export type TemplateSummary = z.infer<typeof templateSummary>;
export type Template = PageTemplate;

/** The create-page body for a page titled `title` from a template. */
export interface TemplatePage {
  title: string;
  body: string;
  description?: string;
  tags?: string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The page a template makes: its body, description and tags, with the writer's `title`
 * in place of the template's (in the title and in the body's leading heading).
 */
export function fromTemplate(template: Template, title: string): TemplatePage {
  const heading = new RegExp(`^# ${escapeRegExp(template.title)}[ \\t]*$`, 'm');
  const { description, tags } = template.frontmatter;
  return {
    title,
    body: template.body.replace(heading, () => `# ${title}`),
    ...(typeof description === 'string' ? { description } : {}),
    ...(Array.isArray(tags) ? { tags: tags.filter((t): t is string => typeof t === 'string') } : {}),
  };
}

/** Fetches template `id` and makes the page titled `title` from it. */
export async function pageFromTemplate(id: string, title: string): Promise<TemplatePage> {
  const template = await api<Template>('GET', `/api/v1/templates/${encodeURIComponent(id)}`);
  return fromTemplate(template, title);
}
