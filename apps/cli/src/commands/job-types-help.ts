/** What `--type` takes, and what each type's targets are. */
export const JOB_TYPE_HELP =
  'search (keywords), details (ASINs or product URLs), reviews (ASINs or reviews URLs), offers (ASINs or offer-listing URLs), ' +
  'bestsellers (browse node ids or best-seller URLs), category (browse node ids or category URLs), seller (seller ids or profile URLs) ' +
  'or autocomplete (prefixes)';
