import { Link } from 'react-router';

/** The app's own not-found page. */
export function NotFoundPage({ message = 'There is nothing at this address.' }: { message?: string }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1>Not found</h1>
        <p>{message}</p>
        <p>
          <Link to="/">Go to your workspaces</Link>
        </p>
      </div>
    </main>
  );
}
