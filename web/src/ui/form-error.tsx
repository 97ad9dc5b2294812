import { ApiError, NetworkError } from '../api/client';

/** What went wrong, in words a writer can act on. */
export function errorText(error: unknown): string {
  if (error instanceof NetworkError)
    return 'The server cannot be reached. Check your connection and try again.';
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong.';
}

/** A form's error, announced to screen readers as it appears. */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {errorText(error)}
    </p>
  );
}
