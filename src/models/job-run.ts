import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { date, str } from './columns.js';

/** The last run of each maintenance job, for the diagnostics page. */
export class JobRun extends Model<InferAttributes<JobRun>, InferCreationAttributes<JobRun>> {
  declare name: string;
  declare last_run_at: Date | null;
  declare last_status: string | null;
  declare last_error: CreationOptional<string | null>;

  static initModel(sequelize: Sequelize) {
    JobRun.init(
      { name: { ...str(64), primaryKey: true }, last_run_at: date(), last_status: str(16, true), last_error: str(1000, true) },
      { sequelize, tableName: 'job_runs', modelName: 'JobRun', timestamps: false },
    );
  }
}
