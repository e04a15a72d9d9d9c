/** A refusal or a failure, in the API's words, announced as it appears; nothing when there is none. */
export function Alert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="error">
      {message}
    </p>
  );
}
