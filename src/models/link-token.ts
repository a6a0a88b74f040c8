import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { date, modelOptions, pk, ref, schoolId, str } from './columns.js';

export const linkKinds = ['view', 'unsubscribe', 'verify'] as const;
export type LinkKind = (typeof linkKinds)[number];

/**
 * A link sent to a parent in an SMS or an e-mail: a post's web page (`view`, naming the item), an
 * unsubscribe link (`unsubscribe`) or an address's verification (`verify`, naming the address). Only
 * the hash of its token is kept: the token itself is in the message alone.
 */
export class LinkToken extends Model<InferAttributes<LinkToken>, InferCreationAttributes<LinkToken>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare kind: LinkKind;
  declare token_hash: string;
  declare parent_id: number;
  declare entity_type: CreationOptional<string | null>;
  declare entity_id: CreationOptional<number | null>;
  /** A staff reply's page names the reply as well as its thread. */
  declare reply_id: CreationOptional<number | null>;
  declare email: CreationOptional<string | null>;
  declare expires_at: Date;
  declare created_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    LinkToken.init(
      {
        id: pk(), school_id: schoolId(), kind: str(12) as never, token_hash: str(64), parent_id: ref(), entity_type: str(20, true), entity_id: ref(true),
        reply_id: ref(true), email: str(254, true), expires_at: date(false), created_at: date(false),
      },
      {
        sequelize, tableName: 'link_tokens', modelName: 'LinkToken', ...modelOptions, updatedAt: false,
        indexes: [
          { name: 'link_tokens_token_uq', unique: true, fields: ['school_id', 'token_hash'] },
          { name: 'link_tokens_parent', fields: ['school_id', 'parent_id'] },
        ],
      },
    );
  }
}
