import type { common as en } from '../en/common.ts';
import type { Messages } from '../messages.ts';

export const common: Messages<typeof en> = {
  language: {
    label: 'Langue',
    system: 'Comme le système ({{language}})',
  },
};
