package server

import "github.com/julienschmidt/httprouter"

// routes is the one route table; it mirrors docs/API.md.
func (s *Server) routes(r *httprouter.Router) {
	s.route(r, "GET", "/api/health", public, s.health)

	// Authentication and users
	s.route(r, "POST", "/api/auth/login", public, s.login)
	s.route(r, "GET", "/api/auth/me", anyUser, s.me)
	s.route(r, "GET", "/api/users", adminOnly, s.listUsers)
	s.route(r, "POST", "/api/users", adminOnly, s.createUser)
	s.route(r, "PUT", "/api/users/:id", adminOnly, s.updateUser)
	s.route(r, "DELETE", "/api/users/:id", adminOnly, s.deleteUser)

	// Shifts and time entries
	// (issue: foundation)

	// Discounts
	// (issue: discounts)

	// TSE
	// (issue: tse)

	// Notifications and events
	s.route(r, "GET", "/api/notifications/settings", adminOnly, s.listNotificationSettings)
	s.route(r, "POST", "/api/notifications/settings", adminOnly, s.createNotificationSetting)
	s.route(r, "PUT", "/api/notifications/settings/:id", adminOnly, s.updateNotificationSetting)
	s.route(r, "DELETE", "/api/notifications/settings/:id", adminOnly, s.deleteNotificationSetting)
	s.route(r, "GET", "/api/notifications/logs", adminOnly, s.listNotificationLogs)
	s.route(r, "POST", "/api/notifications/test", adminOnly, s.testNotification)
	s.route(r, "GET", "/api/notifications/deliveries", adminOnly, s.listDeliveries)
	s.route(r, "POST", "/api/events", anyUser, s.publishEvent)
}
