/** The console's menu: each resource sits in one of these groups, in this order. */
export const menu = {
  people: { name: 'Families', icon: 'Users' },
  staff: { name: 'Staff', icon: 'Briefcase' },
  communication: { name: 'Communication', icon: 'MessageSquare' },
  classroom: { name: 'Classroom', icon: 'BookOpen' },
  setup: { name: 'School set-up', icon: 'Settings' },
  access: { name: 'Access', icon: 'Smartphone' },
};
