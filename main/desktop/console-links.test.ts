import { describe, expect, it } from 'vitest';
import { consoleAppUrl, consoleLogsUrl } from '../../shared/console-links.ts';
import { externalLink } from './url-policy.ts';

describe('the console links of the dashboard on the desktop', () => {
  it('go to the browser: https to the console host, which the URL policy allows', () => {
    for (const url of [
      consoleAppUrl('orga_3547a882-d464-4c34-8168-add4b3e0c135', 'app_1'),
      consoleLogsUrl('orga_acme', 'app_1'),
      consoleAppUrl('user_me', 'app_2'),
    ]) {
      expect(externalLink(url)).toBe(url);
    }
    expect(consoleAppUrl('user_f704a8cf', 'app_2')).toBe(
      'https://console.clever-cloud.com/users/me/applications/app_2',
    );
    expect(consoleLogsUrl('orga_acme', 'app_1')).toBe(
      'https://console.clever-cloud.com/organisations/orga_acme/applications/app_1/logs',
    );
  });

  it('an id cannot leave the console path', () => {
    expect(consoleAppUrl('orga_x/../../evil', 'app_1')).toBe(
      'https://console.clever-cloud.com/organisations/orga_x%2F..%2F..%2Fevil/applications/app_1',
    );
  });
});
