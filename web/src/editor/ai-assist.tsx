import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError } from '../api/client';
import { errorText } from '../ui/form-error';
import { AiMenu, AI_ACTIONS, type AiAction } from './ai-menu';
import { editorViewNear } from './find-editor-view';
import { wordDiff } from './word-diff';
import '../styles/ai-assist.css';
import { aiKeys } from '../api/query-keys';

/** `GET /api/v1/ai/status`. */
interface AiStatus {
  enabled: boolean;
}

/** The selected text the writer asked about, and where it was. */
interface Target {
  from: number;
  to: number;
  text: string;
}

type Step =
  | { kind: 'idle' }
  | { kind: 'menu'; target: Target }
  | { kind: 'language'; target: Target }
  | { kind: 'asking'; target: Target; action: AiAction }
  | { kind: 'suggestion'; target: Target; action: AiAction; result: string }
  | { kind: 'problem'; message: string };

const labelOf = (action: AiAction) =>
  AI_ACTIONS.find((a) => a.action === action)?.label.replace('…', '') ?? action;

/** What went wrong, in words; the page text is never touched by a failure. */
function problemText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'AI_DISABLED')
    return 'AI assistance is turned off on this server.';
  if (error instanceof ApiError && error.status === 429)
    return 'Too many AI requests. Wait a moment and try again.';
  return `The AI could not help this time: ${errorText(error)}`;
}

/** The "AI" menu of the page header, shown only when the server has an AI provider. */
export function AiAssist({ slug }: { slug: string }) {
  const status = useQuery({
    queryKey: aiKeys.status(),
    queryFn: () => api<AiStatus>('GET', '/api/v1/ai/status'),
    staleTime: 5 * 60_000,
  });
  return status.data?.enabled ? <AiAssistant slug={slug} /> : null;
}

/**
 * Writing help on the editor's selection: choose an action, see the suggestion as a word
 * diff against the selected text, then Accept (replaces exactly that range) or Discard.
 */
function AiAssistant({ slug }: { slug: string }) {
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [language, setLanguage] = useState('');

  const view = () => editorViewNear(button.current);

  useEffect(() => {
    if (step.kind === 'suggestion' || step.kind === 'problem') panel.current?.focus();
  }, [step.kind]);

  const close = (focus: 'button' | 'editor') => {
    setStep({ kind: 'idle' });
    if (focus === 'editor') view()?.focus();
    else button.current?.focus();
  };

  const openMenu = () => {
    if (step.kind === 'menu') return close('button');
    const editor = view();
    const range = editor?.state.selection.main;
    if (!editor || !range || range.empty) {
      setStep({ kind: 'problem', message: 'Select the text you want help with first.' });
      return;
    }
    setStep({
      kind: 'menu',
      target: { from: range.from, to: range.to, text: editor.state.sliceDoc(range.from, range.to) },
    });
  };

  const ask = async (target: Target, action: AiAction, lang?: string) => {
    setStep({ kind: 'asking', target, action });
    try {
      const answer = await api<{ result: string }>('POST', '/api/v1/ai/writing-assist', {
        action,
        content: target.text,
        ...(lang ? { language: lang } : {}),
        workspace_id: slug,
      });
      setStep({ kind: 'suggestion', target, action, result: answer.result });
    } catch (error) {
      setStep({ kind: 'problem', message: problemText(error) });
    }
  };

  const choose = (action: AiAction) => {
    if (step.kind !== 'menu') return;
    if (action === 'translate') setStep({ kind: 'language', target: step.target });
    else void ask(step.target, action);
  };

  const translate = (event: FormEvent) => {
    event.preventDefault();
    if (step.kind === 'language' && language.trim()) void ask(step.target, 'translate', language.trim());
  };

  /** Replaces exactly the range that was asked about, if it still holds that text. */
  const accept = (target: Target, result: string) => {
    const editor = view();
    if (!editor || editor.state.sliceDoc(target.from, target.to) !== target.text) {
      setStep({
        kind: 'problem',
        message: 'The selected text changed while the AI was working. Select it again and retry.',
      });
      return;
    }
    editor.dispatch({
      changes: { from: target.from, to: target.to, insert: result },
      selection: { anchor: target.from, head: target.from + result.length },
      userEvent: 'input.ai',
      scrollIntoView: true,
    });
    close('editor');
  };

  return (
    <div className="ai-assist">
      <button
        ref={button}
        type="button"
        className="button small"
        aria-haspopup="menu"
        aria-expanded={step.kind === 'menu'}
        aria-label="AI writing assistance"
        onClick={openMenu}
      >
        AI
      </button>
      {step.kind === 'menu' && <AiMenu onChoose={choose} onClose={() => close('button')} />}
      {step.kind === 'language' && (
        <form className="ai-panel" aria-label="Translate the selection" onSubmit={translate}>
          <label htmlFor="ai-language">Language</label>
          <input
            id="ai-language"
            autoFocus
            value={language}
            placeholder="e.g. German"
            onChange={(e) => setLanguage(e.target.value)}
          />
          <div className="ai-panel-actions">
            <button type="submit" className="button small primary" disabled={!language.trim()}>
              Translate
            </button>
            <button type="button" className="button small" onClick={() => close('editor')}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {step.kind === 'asking' && (
        <p className="ai-panel" role="status">
          Asking the AI to {labelOf(step.action).toLowerCase()} the selection…
        </p>
      )}
      {step.kind === 'suggestion' && (
        <section className="ai-panel" aria-label="AI suggestion" tabIndex={-1} ref={panel}>
          <h2>{labelOf(step.action)}: suggested change</h2>
          <p className="ai-diff">
            {wordDiff(step.target.text, step.result).map((part, i) =>
              part.kind === 'same' ? (
                <span key={i}>{part.text}</span>
              ) : part.kind === 'removed' ? (
                <del key={i}>
                  <span className="visually-hidden">removed: </span>
                  {part.text}
                </del>
              ) : (
                <ins key={i}>
                  <span className="visually-hidden">added: </span>
                  {part.text}
                </ins>
              ),
            )}
          </p>
          <div className="ai-panel-actions">
            <button
              type="button"
              className="button small primary"
              onClick={() => accept(step.target, step.result)}
            >
              Accept
            </button>
            <button type="button" className="button small" onClick={() => close('editor')}>
              Discard
            </button>
          </div>
        </section>
      )}
      {step.kind === 'problem' && (
        <section className="ai-panel" aria-label="AI assistance" tabIndex={-1} ref={panel}>
          <p role="alert">{step.message}</p>
          <div className="ai-panel-actions">
            <button type="button" className="button small" onClick={() => close('editor')}>
              Close
            </button>
          </div>
        </section>
      )}
    </div>
  );
}
