/** markdown-it-deflist ships no types: a plain markdown-it plugin (`md.use(deflist)`). */
declare module 'markdown-it-deflist' {
  import type { PluginSimple } from 'markdown-it';

  const deflist: PluginSimple;
  export default deflist;
}
