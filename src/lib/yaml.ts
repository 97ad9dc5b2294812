import type * as Yaml from 'yaml';
import { lazyPackage } from './lazy-package.js';

/**
 * The YAML parser, loaded when a page's frontmatter or a docs tool's configuration file is
 * first read or written: a server that only starts never needs it.
 */
export const loadYaml = lazyPackage<typeof Yaml>('yaml');
