import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/**
 * A screen that fails to render shows what happened and a way on, instead of a blank page.
 * Every save first writes the page's local draft, which the editor offers again after the
 * reload if the save did not go through.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="auth-page">
        <div className="auth-card" role="alert">
          <h1>Something went wrong</h1>
          <p>This screen could not be shown. Saved pages are safe; reload to carry on.</p>
          <p className="hint">{this.state.error.message}</p>
          <p>
            <button type="button" className="button primary" onClick={() => location.reload()}>
              Reload
            </button>
          </p>
        </div>
      </main>
    );
  }
}
