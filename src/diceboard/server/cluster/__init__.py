"""Several ``diceboard serve`` processes on one PostgreSQL database: changes fanned out to every
process's sockets by ``LISTEN``/``NOTIFY``, and one owner per game for its clock and computer
(a lease in the database). See :mod:`.node`; ``diceboard serve --workers N`` starts N such
processes on one port (:mod:`.workers`)."""

from diceboard.server.cluster.node import ClusterNode

__all__ = ["ClusterNode"]
