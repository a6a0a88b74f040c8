import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';
import { DataTypes } from 'sequelize';

export type AddressOwner = 'staff' | 'parent' | 'student';

export class Address extends Model<InferAttributes<Address>, InferCreationAttributes<Address>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare owner_type: AddressOwner;
  declare owner_id: number;
  declare address_type: string;
  declare address: string;
  declare city: string | null;
  declare pincode: number | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Address.init(
      {
        id: pk(), school_id: schoolId(), owner_type: str(16), owner_id: ref(), address_type: str(32, false, 'current'),
        address: str(500), city: str(120, true), pincode: { type: DataTypes.INTEGER, allowNull: true }, ...timestamps(),
      },
      {
        sequelize, tableName: 'addresses', modelName: 'Address', ...modelOptions,
        indexes: [{ name: 'addresses_owner', fields: ['school_id', 'owner_type', 'owner_id'] }],
      },
    );
  }
}
