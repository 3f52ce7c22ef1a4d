import { describe, expect, it } from 'vitest';
import { chooseDatabase, redactDatabaseUrl } from './database-url.ts';

const addon = 'postgresql://u_1:s3cret@b-1.postgresql.services.clever-cloud.com:5432/b_1';

describe('the database of team mode', () => {
  it('is --database, else DATABASE_URL, else the Clever Cloud add-on URI; none is SQLite', () => {
    expect(chooseDatabase(undefined, {})).toBeNull();
    expect(chooseDatabase(undefined, { POSTGRESQL_ADDON_URI: addon })).toEqual({
      url: addon,
      source: 'POSTGRESQL_ADDON_URI',
    });
    expect(
      chooseDatabase(undefined, { DATABASE_URL: 'postgres://a@h/d', POSTGRESQL_ADDON_URI: addon })?.source,
    ).toBe('DATABASE_URL');
    expect(chooseDatabase('postgres://x@h/d', { DATABASE_URL: 'postgres://a@h/d' })).toEqual({
      url: 'postgres://x@h/d',
      source: '--database',
    });
  });

  it('refuses a URL that is not PostgreSQL, without printing its password', () => {
    expect(() => chooseDatabase('mysql://u:hunter2@h/d', {})).toThrow(/--database: not a postgres/);
    expect(() => chooseDatabase('mysql://u:hunter2@h/d', {})).not.toThrow(/hunter2/);
    expect(() => chooseDatabase(undefined, { DATABASE_URL: 'nonsense' })).toThrow(/DATABASE_URL/);
  });

  it('redacts the password and secret-looking parameters for logs', () => {
    expect(redactDatabaseUrl(`${addon}?sslpassword=x&application_name=r`)).toBe(
      'postgresql://u_1:***@b-1.postgresql.services.clever-cloud.com:5432/b_1?sslpassword=***&application_name=r',
    );
    expect(redactDatabaseUrl('%%%')).toBe('<unparsable URL>');
  });
});
