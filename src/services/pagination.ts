/** page/limit -> offset, and the `pagination` object the web lists answer with. */
export interface PageRequest {
  page: number;
  limit: number;
}

export const offsetOf = ({ page, limit }: PageRequest) => (page - 1) * limit;

export const paginationOf = (total: number, { page, limit }: PageRequest) => ({
  total,
  page,
  limit,
  pages: Math.ceil(total / limit),
});
