/** What a date field holds while its entry is not a date (incomplete, impossible): never a date, so a schema refuses it. */
export const INVALID_DATE = 'invalid';
/** Spec 002 §5 "Date pickers show 'Please enter a valid date'". */
export const INVALID_DATE_MESSAGE = 'Please enter a valid date';

/** An email address as forms check it (the access request's rule, spec 001 §5): something@host.domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A phone number: digits with the usual separators and an optional leading +, 6 to 15 digits. */
export const PHONE_PATTERN = /^\+?(?:[\s().-]*\d){6,15}[\s().-]*$/;

/** A web address: http or https, a host, then anything without spaces. */
export const URL_PATTERN = /^https?:\/\/[^\s/?#:@]+(?::\d+)?(?:[/?#]\S*)?$/i;

/** What a path's id that is not a row id is told (a row id is a whole number within the database's range). */
export const ID_PARAM_MESSAGE = 'The id must be a whole number from 1 to 2147483647.';
