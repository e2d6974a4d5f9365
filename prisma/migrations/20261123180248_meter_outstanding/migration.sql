-- AlterTable
ALTER TABLE "meters" ADD COLUMN     "outstanding_minor" BIGINT NOT NULL DEFAULT 0;
