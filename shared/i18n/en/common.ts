/** Words used across the dashboard, the tray and the notifications. */
export const common = {
  language: {
    label: 'Language',
    system: 'As the system ({{language}})',
  },
} as const;
