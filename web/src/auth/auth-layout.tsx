import type { ReactNode } from 'react';

/** The centred card every signed-out screen uses. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand" aria-hidden="true">
          <span className="brand-mark">F</span> Folio
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
