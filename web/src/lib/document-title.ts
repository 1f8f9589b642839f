import { useEffect } from 'react';
import { useAuth } from 'react-oidc-context';
import { useEnvironmentName } from './environment';

/** Sets the document title to "{header} - {company}" (spec 000 §2). */
export function useDocumentTitle(header: string): void {
  const { isAuthenticated } = useAuth();
  const company = useEnvironmentName(isAuthenticated);
  useEffect(() => {
    document.title = `${header} - ${company}`;
  }, [header, company]);
}
