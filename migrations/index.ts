import type { Sequelize } from 'sequelize';
import * as m0001 from './0001-initial-schema.js';
import * as m0002 from './0002-console-sessions.js';
import * as m0003 from './0003-feed-indexes.js';
import * as m0004 from './0004-feed-single-walk.js';
import * as m0005 from './0005-student-search-index.js';
import * as m0006 from './0006-groups.js';
import * as m0007 from './0007-audiences.js';
import * as m0008 from './0008-school-settings-and-preferences.js';
import * as m0009 from './0009-scheduling.js';
import * as m0010 from './0010-audit.js';
import * as m0011 from './0011-webhooks.js';
import * as m0012 from './0012-group-description-text.js';
import * as m0013 from './0013-student-archived-at-backfill.js';
import * as m0014 from './0014-demo-published-at.js';
import * as m0015 from './0015-reaching-families.js';
import * as m0016 from './0016-link-tokens-and-sms-usage.js';
import * as m0017 from './0017-attachments.js';
import * as m0018 from './0018-item-attachment-ids.js';
import * as m0019 from './0019-forms.js';
import * as m0020 from './0020-events-and-calendar-feeds.js';
import * as m0021 from './0021-staff-designations.js';
import * as m0022 from './0022-parent-reads-audience-scope-in-index.js';
import * as m0023 from './0023-long-text-columns.js';

export interface Migration {
  name: string;
  up(sequelize: Sequelize): Promise<void>;
  down(sequelize: Sequelize): Promise<void>;
}

/** Every migration, in order: imported statically so that the same list runs from the sources and from dist/. */
export const migrations: Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012, m0013, m0014, m0015, m0016, m0017, m0018, m0019, m0020, m0021, m0022, m0023];
