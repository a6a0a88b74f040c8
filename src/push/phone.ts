import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * A stored phone number in E.164, or null when libphonenumber's metadata finds it invalid. One that
 * starts with `+` is international and read as it is; any other is a national number of `country`.
 */
export function e164(phone: string, country: string): string | null {
  const parsed = parsePhoneNumberFromString(phone.trim(), country as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}
