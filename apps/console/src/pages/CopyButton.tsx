import { useState } from 'react';

/**
 * Copies a text (a Pix code, a new API key, a sign-in link) to the clipboard, and says so beside the button. Keyed by
 * the text where it is used, so a new text starts uncopied.
 */
export function CopyButton({ text, label, id }: { text: string; label: string; id: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
        aria-describedby={copied ? `${id}-copied` : undefined}
      >
        {label}
      </button>
      {copied && (
        <span id={`${id}-copied`} className="notice">
          Copied
        </span>
      )}
    </>
  );
}
