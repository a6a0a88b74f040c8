import yazl from 'yazl';

/** A CSV file from a header and rows, each value quoted as a spreadsheet would write it when needed. */
export function csv(header: string[], rows: Array<Array<string | number | null>>, options: { bom?: boolean; eol?: string } = {}): string {
  const cell = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const eol = options.eol ?? '\n';
  return (options.bom ? '\ufeff' : '') + [header, ...rows].map((r) => r.map(cell).join(',')).join(eol) + eol;
}

/** A .zip holding the given files (names may include a folder). */
export function zip(files: Record<string, string>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) archive.addBuffer(Buffer.from(text), name);
  archive.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    archive.outputStream.on('data', (d: Buffer) => parts.push(d)).on('end', () => resolve(Buffer.concat(parts))).on('error', reject);
  });
}

export const studentHeader = ['roll_no', 'student_full_name', 'gender', 'grade', 'date_of_birth', 'blood_group', 'phone_no', 'father_name', 'mother_name', 'email', 'address', 'city', 'pincode', 'groups'];
export const staffHeader = ['name', 'designation', 'phone_no', 'email', 'assigned_roll_nos'];

/**
 * A small OneRoster set: one school, two classes, two teachers, three students, two guardians.
 * Version 1.1 puts each user's role in users.csv; 1.2 puts roles in roles.csv.
 */
export function oneRosterSet(version: '1.1' | '1.2', prefix = ''): Record<string, string> {
  const users = [
    // sourcedId, status, enabledUser, orgSourcedIds, role, username, givenName, familyName, identifier, email, sms, phone, agentSourcedIds, grades
    ['s1', 'active', 'true', 'org1', 'student', 'asha', 'Asha', 'Rao', `${prefix}OR-1`, '', '', '', 'g1', '05'],
    ['s2', 'active', 'true', 'org1', 'student', 'ravi', 'Ravi', 'Rao', `${prefix}OR-2`, '', '', '', 'g1', 'KG'],
    ['s3', 'active', 'true', 'org1', 'student', 'meera', 'Meera', 'Das', `${prefix}OR-3`, '', '', '', 'g2', 'PK'],
    ['g1', 'active', 'true', 'org1', 'guardian', 'ravi.sr', 'Ravi', 'Rao Sr', '', 'ravi@example.com', '', '+91 98765 43001', '', ''],
    ['g2', 'active', 'true', 'org1', 'parent', 'anil', 'Anil', 'Das', '', '', '9876543002', '', '', ''],
    ['t1', 'active', 'true', 'org1', 'teacher', 'maths', 'Maya', 'Iyer', '', 'maya@school.example', '', '9000043001', '', ''],
    ['t2', 'active', 'true', 'org1', 'teacher', 'art', 'Arun', 'Nair', '', '', '9000043002', '', '', ''],
    ['x1', 'tobedeleted', 'true', 'org1', 'student', 'gone', 'Gone', 'Away', `${prefix}OR-9`, '', '', '', '', '05'],
  ];
  const userHeader = ['sourcedId', 'status', 'enabledUser', 'orgSourcedIds', 'role', 'username', 'givenName', 'familyName', 'identifier', 'email', 'sms', 'phone', 'agentSourcedIds', 'grades'];
  const files: Record<string, string> = {
    'orgs.csv': csv(['sourcedId', 'status', 'name', 'type'], [['org1', 'active', 'Greenwood', 'school']]),
    'classes.csv': csv(['sourcedId', 'status', 'title', 'grades', 'classType', 'schoolSourcedId'], [['c1', 'active', 'Maths 5A', '05', 'scheduled', 'org1'], ['c2', 'active', 'Art Club', '05', 'scheduled', 'org1']]),
    'enrollments.csv': csv(['sourcedId', 'status', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role', 'primary'], [
      ['e1', 'active', 'c1', 'org1', 's1', 'student', 'false'],
      ['e2', 'active', 'c1', 'org1', 's2', 'student', 'false'],
      ['e3', 'active', 'c2', 'org1', 's3', 'student', 'false'],
      ['e4', 'active', 'c2', 'org1', 's1', 'student', 'false'],
      ['e5', 'active', 'c1', 'org1', 't1', 'teacher', 'true'],
      ['e6', 'active', 'c2', 'org1', 't2', 'teacher', 'true'],
    ]),
    'demographics.csv': csv(['sourcedId', 'status', 'birthDate', 'sex'], [['s1', 'active', '2016-04-12', 'female'], ['s2', 'active', '2020-01-30', 'male']]),
  };
  if (version === '1.1') {
    files['users.csv'] = csv(userHeader, users);
  } else {
    files['users.csv'] = csv(userHeader.filter((h) => h !== 'role'), users.map((u) => u.filter((_, i) => i !== 4)));
    files['roles.csv'] = csv(['sourcedId', 'status', 'userSourcedId', 'roleType', 'role', 'orgSourcedId'], users.map((u, i) => [`r${i}`, 'active', u[0]!, 'primary', u[4]!, 'org1']));
  }
  return files;
}
