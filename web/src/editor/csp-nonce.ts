import { EditorView } from '@codemirror/view';

/** This page's CSP nonce, which the server writes into index.html for each response. */
const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? '';

/**
 * Lets CodeMirror's injected <style> elements pass the app's Content-Security-Policy,
 * which allows styles only from the app's own files or with the response's nonce.
 */
export const cspNonce = EditorView.cspNonce.of(nonce);
