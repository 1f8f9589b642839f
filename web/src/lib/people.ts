import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Person } from '@cfs/contracts/shell';
import { apiGet } from './api-client';

/** The directory searched: a person (approvers, a service manager), or people and groups (an assignee). */
export type PeopleDirectory = 'people' | 'peopleandgroups';

/** `/api/people` or `/api/peopleandgroups?searchTerm=` (spec 001 §7; the caller debounces 400 ms). */
export function usePeopleSearch(directory: PeopleDirectory, searchTerm: string) {
  const term = searchTerm.trim();
  return useQuery({
    queryKey: ['people', directory, term],
    queryFn: ({ signal }) => apiGet<Person[]>(`/api/${directory}`, { searchTerm: term }, { signal }),
    enabled: term.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
