import { useEffect, useState } from 'react';
import type { Environment } from './api';

/** The console's places: #/<environment>/<page>[/<id>]. Hash routes: the server serves one page and nothing else. */
export interface Place {
  environment: Environment;
  page: string;
  id?: string;
}

export function parsePlace(hash: string): Place {
  const [environment, page, id] = hash.replace(/^#\/?/, '').split('/');
  return {
    environment: environment === 'production' ? 'production' : 'sandbox',
    page: page || 'overview',
    ...(id && { id: decodeURIComponent(id) }),
  };
}

export const hrefOf = (place: Place): string => `#/${place.environment}/${place.page}${place.id ? `/${encodeURIComponent(place.id)}` : ''}`;

export function usePlace(): Place {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const changed = () => setHash(window.location.hash);
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return parsePlace(hash);
}

export const go = (place: Place): void => {
  window.location.hash = hrefOf(place);
};
