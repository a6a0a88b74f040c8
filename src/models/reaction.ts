import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';
import type { EntityType } from './comment.js';

export const reactionTypes = ['like', 'love'] as const;
export type ReactionType = (typeof reactionTypes)[number];

/** One reaction per parent per entity, held by the unique key rather than by a read-then-write. */
export class Reaction extends Model<InferAttributes<Reaction>, InferCreationAttributes<Reaction>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare entity_type: EntityType;
  declare entity_id: number;
  declare parent_id: number;
  declare staff_id: CreationOptional<number | null>;
  declare reaction_type: ReactionType;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Reaction.init(
      {
        id: pk(), school_id: schoolId(), entity_type: str(16), entity_id: ref(), parent_id: ref(), staff_id: ref(true),
        reaction_type: str(8), ...timestamps(),
      },
      {
        sequelize, tableName: 'reactions', modelName: 'Reaction', ...modelOptions,
        indexes: [
          { name: 'reactions_one_per_user_uq', unique: true, fields: ['school_id', 'entity_type', 'entity_id', 'parent_id'] },
          { name: 'reactions_entity_type', fields: ['school_id', 'entity_type', 'entity_id', 'reaction_type'] },
        ],
      },
    );
  }
}
